"""``python -m jmsctl`` runs the command line."""

from jmsctl.cli.app import main

main()
