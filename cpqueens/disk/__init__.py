"""Files on disk: output paths checked before any work, and files written whole.

Every family that writes a file (instances, trees, reports, campaigns) goes through
:mod:`.writing`, so an interrupted run never leaves half a file behind.
"""
