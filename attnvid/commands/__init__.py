"""One module per ``attnvid`` command, each a click command added to the group in
:mod:`attnvid.cli`. What several commands share lives in the stage that does it
(:mod:`attnvid.render`, :mod:`attnstage.speech`, :mod:`attnvid.publish`) or in attnvid's
shared modules named by concept (lessons, options, catalog...), never in a command.
"""
