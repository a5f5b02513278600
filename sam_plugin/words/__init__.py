"""Messages as data: phrases (a key plus values) and their rendering (``phrase.py``)."""
