"""`python -m rulecraft ...`: the `rulecraft` command."""

import sys

from interpreter.apps.entry import main

sys.exit(main())
