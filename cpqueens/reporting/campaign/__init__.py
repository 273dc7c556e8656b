"""A campaign's results, for a person: read, tabled, plotted, written back as a spec.

Map: ``runs`` (a campaign's runs read from its store), ``tables`` (the summary and its
details as tables), ``plots`` (the cactus, scatter and transition plots),
``phase_transition`` (the fraction satisfiable and the effort against a generator's
parameter), ``spec_from_runs`` (the spec that reruns a store's campaign),
``solver_programs`` (the programs each solver configuration runs, with their versions).
"""
