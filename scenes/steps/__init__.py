"""The lecture's scenes, one file per scene named by what it shows (``softmax.py``), and the
parts a long scene is split into (``mixing_layout.py``: named after their scene). No file
carries a number: a scene's place in the lecture is :data:`scenes.order.ORDER`'s."""
