"""Validation problems: `(path, location, code, message)`, printed as `path:location: CODE message`.

Codes are stable (tests, scripts and docs refer to them):

| code | meaning |
|------|---------|
| E001 | the file is not valid YAML (location is the line) |
| E002 | a required field is missing |
| E003 | a field the schema does not know |
| E004 | a field has the wrong type or an invalid value |
| E005 | the file cannot be read (not UTF-8, not a mapping, unreadable) |
| E010 | `id` differs from the file name |
| E011 | the same id is defined by two files |
| E012 | `related` names an entry that does not exist |
| E020 | a `next` (or `start`) names a node that does not exist |
| E021 | a node cannot be reached from `start` |
| E022 | the tree has a cycle |
| E023 | a fix has no command and no code change shown whatever the values (without `when`) |
| E024 | a number question has no fallback branch (a value could lead nowhere) |
| E030 | a signature regex does not compile (RE2 syntax; no backreferences or lookaround) |
| E031 | a signature's declared captures differ from the regex's named groups |
| E032 | a signature's `example` is not matched by its own pattern |
| E033 | `tpu_host_device` is set on a signature (it applies to excludes only) |
| E034 | `tpu_evidence: false` is set on an exclude (it applies to signatures only) |
| E035 | `sets` is given on an exclude (it applies to signatures only) |
| E036 | a signature's `sets` names no question's `answer_from`, or a value no option has |
| E037 | `aftermath` is set on an exclude (it applies to signatures only) |
| E040 | a text is missing one of the languages (en, pt) |
| E041 | a text, command or code step uses a placeholder that nothing can fill |
| E042 | a number question names an unknown advisor |
| E043 | a step's `when` or a question's `answer_from` names a variable nothing can set |
| E044 | a described look-alike repeats one of the entry's own symptoms |
| E045 | a command or code step is written for a framework the entry's `frameworks` does not list |
| E046 | the explanation names TensorFlow only, the entry lists JAX or PyTorch, no `stack_notes` |
| E047 | a tree text spells out a value a placeholder fills (`--zone=ZONE` for `--zone={zone}`) |
"""

from __future__ import annotations

from dataclasses import dataclass

CODES = {
    "E001": "invalid YAML",
    "E002": "missing field",
    "E003": "unknown field",
    "E004": "invalid value",
    "E005": "unreadable file",
    "E010": "id does not match file name",
    "E011": "duplicate id",
    "E012": "unknown related entry",
    "E020": "dangling node reference",
    "E021": "unreachable node",
    "E022": "cycle in decision tree",
    "E023": "fix without a command or code change",
    "E024": "number question without fallback",
    "E030": "regex does not compile",
    "E031": "captures do not match regex groups",
    "E032": "example not matched by its pattern",
    "E033": "tpu_host_device on a signature",
    "E034": "tpu_evidence on an exclude",
    "E035": "sets on an exclude",
    "E036": "a situation no question takes",
    "E037": "aftermath on an exclude",
    "E040": "missing language",
    "E041": "unknown placeholder",
    "E042": "unknown advisor",
    "E043": "condition on a variable nothing sets",
    "E044": "look-alike repeats a symptom",
    "E045": "a step for a framework the entry does not list",
    "E046": "explanation for TensorFlow only",
    "E047": "a value spelled out where its placeholder belongs",
}


@dataclass(frozen=True, order=True)
class Problem:
    path: str
    location: str
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.location}: {self.code} {self.message}"

    def to_dict(self) -> dict[str, str]:
        return {
            "path": self.path,
            "location": self.location,
            "code": self.code,
            "message": self.message,
        }
