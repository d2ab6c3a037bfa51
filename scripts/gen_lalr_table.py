#!/usr/bin/env python3
"""Write jmsctl/selector/lalr_table.py: the LALR(1) parse table lark builds from grammar.lark.

Usage::

    python scripts/gen_lalr_table.py    # after any change to jmsctl/selector/grammar.lark

Until it is run, the parser sees that the table is not grammar.lark's and builds it with lark at
each start (correct, but slower), and tests/test_parse_table.py says the table is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jmsctl.selector.parser import built_table, table_json  # noqa: E402

TARGET = ROOT / "jmsctl" / "selector" / "lalr_table.py"

HEADER = '''"""grammar.lark's LALR(1) parse table as lark builds it, written by scripts/gen_lalr_table.py; do not edit.

jmsctl.selector.parser reads it instead of building it at each start. JSON in a string: a string
costs nothing to compile, and Python compiles this module at each start where no bytecode is cached.
"""

TABLE = r"""'''


def module_text() -> str:
    table = table_json(built_table())
    if '"""' in table or "\\" in table:
        raise ValueError("the table's JSON cannot be written in a raw triple-quoted string")
    return HEADER + table + '"""\n'


def main() -> None:
    TARGET.write_text(module_text(), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
