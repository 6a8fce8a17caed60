"""Where things live: the built-in knowledge, the index, user knowledge, history.

In a checkout (the repository, installed editable or run from source) the knowledge is
`<repo>/knowledge` and the index `<repo>/index`. Installed as a package, the knowledge ships inside
it (`assistant/_knowledge`) and the index goes to the user's cache directory. Environment variables
override each location (useful for tests and for shared machines).
"""

from __future__ import annotations

import os
from pathlib import Path

APP = "tpu-assist"
PACKAGE_DIR = Path(__file__).resolve().parent
REPO_DIR = PACKAGE_DIR.parent


def _checkout() -> bool:
    return (REPO_DIR / "pyproject.toml").is_file() and (REPO_DIR / "knowledge").is_dir()


def builtin_knowledge_dir() -> Path:
    env = os.environ.get("TPU_ASSIST_KNOWLEDGE_DIR")
    if env:
        return Path(env)
    shipped = PACKAGE_DIR / "_knowledge"
    if shipped.is_dir():
        return shipped
    return REPO_DIR / "knowledge"


def index_dir() -> Path:
    env = os.environ.get("TPU_ASSIST_INDEX_DIR")
    if env:
        return Path(env)
    if _checkout():
        return REPO_DIR / "index"
    from platformdirs import user_cache_path

    return user_cache_path(APP) / "index"


def user_knowledge_dir() -> Path:
    env = os.environ.get("TPU_ASSIST_USER_KB")
    if env:
        return Path(env)
    from platformdirs import user_config_path

    return user_config_path(APP) / "knowledge"


def data_dir() -> Path:
    env = os.environ.get("TPU_ASSIST_DATA_DIR")
    if env:
        return Path(env)
    from platformdirs import user_data_path

    return user_data_path(APP)
