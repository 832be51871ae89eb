"""``python -m inspector`` is the ``stream-inspector`` command."""
import sys

from inspector.cli import main

sys.exit(main())
