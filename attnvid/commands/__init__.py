"""One module per ``attnvid`` command, each a click command added to the group in
:mod:`attnvid.cli`. What several commands share lives in the package's modules named
by concept (jobs, lessons, options, catalog, runtime, frames...), never in a command.
"""
