"""DynamoDB access every function shares: the client with its time budget, item conversion, layout versions;
the repositories themselves live beside their services (``repository.py``)."""
