"""The ground floor that attncore's neighbours stand on: the settings a render is made with, the palette, the speech
(no manim)."""
