"""``python -m osmia.agent``: same as ``osmia agent``."""

import sys

from osmia.agent.main import main

sys.exit(main())
