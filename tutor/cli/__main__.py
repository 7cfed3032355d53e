"""``python -m tutor.cli``: the ``tutor`` command."""

import sys

from . import main

sys.exit(main())
