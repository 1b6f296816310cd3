"""The behaviour column that scripts/gen-scalar-table.py and scripts/gen-vgpr-table.py write:
what the ISA checks model of an instruction, assigned from LLVM's mnemonic by a table of exact
names and a list of rules (reference/scalar_table.h and vgpr_table.h say what each value means).
"""
import sys


class Behaviours:
    """`exact`: mnemonic -> value; `rules`: (class or None, compiled pattern, value), tried in
    order for names `exact` does not list."""

    def __init__(self, exact, rules):
        self.exact = exact
        self.rules = rules
        self.seen = set()

    def of(self, cls, name):
        """The value for a row of class `cls` named `name` ("None" when nothing matches)."""
        self.seen.add(name)
        if name in self.exact:
            return self.exact[name]
        for rule_cls, pattern, value in self.rules:
            if (rule_cls is None or rule_cls == cls) and pattern.search(name):
                return value
        return "None"

    def check_every_name_seen(self):
        """Stops the generator when an exact name was no row's: a misspelt name would otherwise
        never match."""
        unknown = sorted(set(self.exact) - self.seen)
        if unknown:
            sys.exit(f"BEHAVIOUR names no generation's llvm-mc knows: {', '.join(unknown)}")
