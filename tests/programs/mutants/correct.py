"""The control: the shared solver, no bug."""

import base

if __name__ == "__main__":
    base.main()
