"""``sam-agent eval``: a suite of CAE tasks run end to end, scored on the final model.

No Qt at import time (the PNG chart imports matplotlib or Qt only when it is drawn).
"""
