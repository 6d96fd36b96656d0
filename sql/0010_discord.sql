-- Discord: the gateway lease (exactly one node of a deployment holds the bot's gateway connection),
-- each guild's time-clock panel message, and the short-lived state of "Login with Discord".

-- One row per platform ('discord'). A node holds the lease while expires_at is in the future and
-- renews it every few seconds; another node takes it over once it has expired. `connected` and the
-- bot's name are what the holder reports, so every node can answer "is the bot connected?".
create table chat_gateway (
  platform    text primary key,
  holder      text not null,
  expires_at  timestamptz not null,
  connected   boolean not null default false,
  bot_user_id text,
  bot_name    text,
  updated_at  timestamptz not null default now()
);

-- The guild's time-clock panel: the message /panel posted, edited in place after every clock write.
create table chat_panels (
  guild_id    text primary key references guilds(id) on delete cascade,
  channel_id  text not null,
  message_id  text not null,
  language    text not null default 'de' check (language in ('de', 'en')),
  posted_by   text not null,
  posted_at   timestamptz not null default now()
);

-- "Login with Discord": the state parameter (stored as SHA-256) with its PKCE verifier, usable once
-- and for ten minutes, so the callback may land on any node.
create table oauth_states (
  state_hash    bytea primary key,
  code_verifier text not null,
  expires_at    timestamptz not null
);
create index oauth_states_by_expiry on oauth_states (expires_at);
