#!/usr/bin/env python3
"""Writes the parameter table of README.md from src/core/params.def (and the
components' lists it includes), so the README never repeats a default by
hand.  --check: exit 1 if it is stale."""
import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[2]
# The list with each '#include "<dir>/<name>.def"' replaced by that file
# (paths relative to src/, as the compiler sees them).
text = re.sub(r'^#include "([^"]+\.def)"$', lambda m: (root / "src" / m.group(1)).read_text(),
              (root / "src/core/params.def").read_text(), flags=re.M)
rows = []
# When MPI_T may set a parameter (the SET column); the same words as tern-info.
when = {"RUNTIME": "any time", "INIT": "before `MPI_Init` (read-only after)",
        "INIT_ALL_EQ": "before `MPI_Init`, same value on every rank (read-only after)"}
param_re = re.compile(r'TERN_PARAM\((\w+),\s*\w+,\s*(\w+),\s*"([^"]*)",\s*(NULL|"[^"]*"),\s*'
                      r'(NULL|TERN_CHOICES\([^)]*\)),\s*(\w+),\s*"((?:[^"\\]|\\.)*)"\)', re.S)
for m in param_re.finditer(text):
    name, _type, default, alias, _choices, setw, desc = m.groups()
    alias = "–" if alias == "NULL" else "`%s`" % alias.strip('"')
    if setw not in when:
        sys.exit(f"params_table.py: {name} has an unknown SET column '{setw}'")
    rows.append(f"| `{name}` | {alias} | {default} | {when[setw]} | {desc} |")
if len(rows) != len(re.findall(r"^\s*TERN_PARAM\(", text, re.M)):
    sys.exit("params_table.py: a TERN_PARAM line in params.def does not have the expected columns")
table = "\n".join(["| `TERN_` name | MVAPICH2 alias | default | MPI_T may set it | meaning |",
                   "|---|---|---|---|---|"] + rows)

readme = root / "README.md"
old = readme.read_text()
pat = re.compile(r"(<!-- params:begin[^>]*-->\n).*?(\n<!-- params:end -->)", re.S)
if not pat.search(old):
    sys.exit("params_table.py: README.md lacks the <!-- params:begin --> ... <!-- params:end --> markers")
new = pat.sub(lambda m: m.group(1) + table + m.group(2), old)
if "--check" in sys.argv:
    if new != old:
        sys.exit("README.md's parameter table is stale: run python3 tools/gen/params_table.py")
    print("README.md's parameter table matches src/core/params.def")
elif new != old:
    readme.write_text(new)
