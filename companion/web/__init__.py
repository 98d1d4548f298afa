"""What makes the companion a phone app fit for a shared network: security headers and CSRF,
rate limits, the player's language and time zone and the web app manifest."""
