"""DynamoDB access every function shares: the client with its time budget, item conversion, repositories."""
