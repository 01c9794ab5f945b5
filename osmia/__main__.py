"""``python -m osmia``: the same as the ``osmia`` console script."""

import sys

from osmia.cli import main

if __name__ == "__main__":
    sys.exit(main())
