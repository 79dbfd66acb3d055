"""`python -m rulecraft ...`: the `rulecraft` command."""

import sys

from rulecraft.interpreter.entry import main

sys.exit(main())
