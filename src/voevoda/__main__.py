"""``python -m voevoda`` is the ``voevoda`` command."""

from voevoda.cli import main

main()
