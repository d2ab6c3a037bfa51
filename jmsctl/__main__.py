"""``python -m jmsctl`` runs the command line (through its entry: ``--version`` and Tab completion of
option names are answered before the command-line framework loads)."""

from jmsctl.cli.entry import main

main()
