"""``python -m services.launcher``: what ``make run`` starts."""

import sys

from services.launcher import main

if __name__ == "__main__":
    sys.exit(main())
