"""`python -m commands` runs the `referee` command line (useful without the console script)."""

from .main import main

if __name__ == "__main__":
    main()
