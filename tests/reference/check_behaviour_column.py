#!/usr/bin/env python3
"""The behaviour column of reference/scalar_table.inc and vgpr_table.inc is what the generators'
BEHAVIOUR names and rules give for each row's mnemonic (scripts/gen-scalar-table.py,
scripts/gen-vgpr-table.py; no llvm-mc needed): a name added to BEHAVIOUR without regenerating
the table fails here. And a BEHAVIOUR name that is no row's mnemonic stops the generator.
Usage: check_behaviour_column.py SOURCE_DIR"""
import importlib.util
import os
import re
import sys

root = sys.argv[1]
TABLES = [
    ("scripts/gen-scalar-table.py", "reference/scalar_table.inc",
     r'\{Gen::(\w+), ScalarClass::(\w+), (\d+), "([^"]+)", \d+, \w+, ScalarBehaviour::(\w+), '
     r'\{\d+, \d+\}\}'),
    ("scripts/gen-vgpr-table.py", "reference/vgpr_table.inc",
     r'\{Gen::(\w+), VgprClass::(\w+), (\d+), "([^"]+)", \d+, VgprBehaviour::(\w+)\}'),
]
failed = False
for script, table, row in TABLES:
    spec = importlib.util.spec_from_file_location("generator", os.path.join(root, script))
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)  # main() runs only as a program
    with open(os.path.join(root, table)) as f:
        rows = re.findall(row, f.read())
    if len(rows) < 1000:
        print(f"{table}: only {len(rows)} rows read")
        failed = True
    for gen, cls, op, name, value in rows:
        want = generator.BEHAVIOURS.of(cls, name)
        if want != value:
            print(f"{table}: {gen} {cls} {op} {name} has {value}, {script} gives {want}")
            failed = True
    generator.BEHAVIOURS.check_every_name_seen()  # every listed name is some row's
    generator.BEHAVIOURS.exact["s_endpgmm"] = "EndProgram"  # a misspelt name
    try:
        generator.BEHAVIOURS.check_every_name_seen()
        print(f"{script}: a misspelt BEHAVIOUR name did not stop it")
        failed = True
    except SystemExit as stop:
        if "s_endpgmm" not in str(stop):
            print(f"{script}: stopped without naming the misspelt name: {stop}")
            failed = True
    print(f"{table}: {len(rows)} rows")
sys.exit(1 if failed else 0)
