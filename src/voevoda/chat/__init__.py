"""Chat front-ends: players and game masters reach the engine from their chats (docs/telegram.md)."""
