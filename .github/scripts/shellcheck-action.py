"""Runs shellcheck on every `run:` script of action.yml (actionlint checks only workflows).

Expressions (${{ ... }}) are replaced by a placeholder word first, as actionlint does.
"""
import re
import subprocess
import sys
import tempfile

from ruamel.yaml import YAML

action = YAML(typ="safe").load(open(sys.argv[1] if len(sys.argv) > 1 else "action.yml"))
failed = False
for i, step in enumerate(action["runs"]["steps"]):
    script = step.get("run")
    if not script:
        continue
    shell = step.get("shell", "bash")
    body = re.sub(r"\$\{\{.*?\}\}", "EXPR", script)
    with tempfile.NamedTemporaryFile("w", suffix=".sh") as f:
        f.write(body)
        f.flush()
        name = step.get("name", f"step {i}")
        result = subprocess.run(["shellcheck", f"--shell={shell}", f.name])
        if result.returncode != 0:
            print(f"action.yml: shellcheck failed for `{name}`", file=sys.stderr)
            failed = True
sys.exit(1 if failed else 0)
