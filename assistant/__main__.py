from assistant.cli.main import main

raise SystemExit(main())
