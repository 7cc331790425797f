"""Web Push subscriptions and the VAPID key (PushFunction; docs/notifications.md)."""
