// An empty buffer is an empty module.
