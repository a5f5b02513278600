"""The demo's bundled material: a sample workspace, example requests with their recorded
provider responses, and the replay responder that serves them through the loopback fake
provider (the real HTTP/SSE path), so a new user can click through a run with no set-up.
"""
