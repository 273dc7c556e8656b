"""Running a program under limits, and ending everything it started: every program
cpqueens starts (a user's command, a FlatZinc solver, ACE's JVM, MiniZinc reading a
model, the SAT solvers' child, a campaign's warm process) is started by
:func:`~.running.start_program` and ended by :func:`~.running.end_program`.

Map: ``running`` (the one start and end; a program run once with a timeout and an output
bound, its pipes read, what it printed and how it ended handed back; its environment),
``lines`` (a program whose output is read line by line as it comes, killed at a
deadline), ``reaper``
(the small script every program is started under: a subreaper that ends the
program's whole tree), ``process_trees`` (the memory and CPU time of a process tree,
found in ``/proc``, and killing all of it).
"""
