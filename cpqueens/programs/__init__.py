"""Running a program under limits, and ending everything it started.

Map: ``running`` (a program run once with a timeout and an output bound, its pipes
read, what it printed and how it ended handed back; its environment), ``reaper``
(the small script every program is started under: a subreaper that ends the
program's whole tree), ``process_trees`` (the memory and CPU time of a process tree,
found in ``/proc``, and killing all of it).
"""
