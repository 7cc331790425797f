"""Web Push notifications: from game events (stream.py) and deadlines (reminders.py); docs/notifications.md."""
