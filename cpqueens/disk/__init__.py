"""Files on disk: read only when regular and bounded, written whole.

Every file cpqueens takes is read by :mod:`.reading` (and, for JSON and TOML,
parsed by :mod:`.structured`), so no file hangs a run or exhausts its memory.

Every family that writes a file (instances, trees, reports, campaigns) goes through
:mod:`.writing`, so an interrupted run never leaves half a file behind.
"""
