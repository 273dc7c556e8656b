"""The control: the shared solver, no bug."""

import base

base.main()
