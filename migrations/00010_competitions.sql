-- Competitions (modules/competitions): members' answers to a competition campaign's invitation
-- to its prize draw, each competition's draw, and its winners. A competition is named by a
-- uuid derived from its campaign (campaigns.CompetitionID), so no table lists competitions.

-- +goose Up
-- A member's decision on a competition they were invited to by completing its campaign: one
-- row per member and competition. entered may follow rejected (the member changed their mind),
-- never the other way round; both are refused once the competition is drawn. transaction_id
-- is the ledger's zero-amount record of the entry (the member's history with
-- competitions=yes), written in the transaction that enters.
CREATE TABLE competition_entries (
    competition_id  TEXT NOT NULL,
    campaign_id     TEXT NOT NULL,
    panel_id        TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    participant_id  TEXT NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    decision        TEXT NOT NULL CHECK (decision IN ('entered', 'rejected')),
    transaction_id  TEXT NULL REFERENCES ledger_entries (id) ON DELETE SET NULL,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL,
    PRIMARY KEY (competition_id, participant_id)
);
-- A member's decisions (the thank-you page asks for one).
CREATE INDEX competition_entries_member ON competition_entries (participant_id);

-- A competition's draw, at most one (the primary key decides between two operators drawing
-- at once). seed is the 32 random bytes (hex) the ranking is keyed with; entrants and
-- entrants_digest (sha256 hex of the sorted ids of the entrants, one per line) fix who was in
-- it, so anyone can rank the entrants again by HMAC-SHA256(seed, participant id) and check
-- the winners. winners is how many the competition asked for; early marks a draw made
-- before the draw date.
CREATE TABLE competition_draws (
    competition_id   TEXT PRIMARY KEY,
    campaign_id      TEXT NOT NULL,
    panel_id         TEXT NOT NULL REFERENCES panels (id) ON DELETE CASCADE,
    seed             TEXT NOT NULL CHECK (length(seed) = 64),
    entrants         INTEGER NOT NULL CHECK (entrants >= 0),
    entrants_digest  TEXT NOT NULL CHECK (length(entrants_digest) = 64),
    winners          INTEGER NOT NULL CHECK (winners >= 1),
    operator         TEXT NOT NULL CHECK (operator <> ''),
    reason           TEXT NOT NULL CHECK (reason <> ''),
    early            BOOLEAN NOT NULL DEFAULT FALSE,
    drawn_at         TIMESTAMP NOT NULL
);
CREATE INDEX competition_draws_panel ON competition_draws (panel_id, drawn_at);

-- The winners of a draw by rank (1 first), each once; transaction_id is the prize's ledger
-- entry (a credit, or a zero-amount record when the prize is not money).
CREATE TABLE competition_winners (
    competition_id  TEXT NOT NULL REFERENCES competition_draws (competition_id) ON DELETE CASCADE,
    participant_id  TEXT NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    rank            INTEGER NOT NULL CHECK (rank >= 1),
    transaction_id  TEXT NULL REFERENCES ledger_entries (id) ON DELETE SET NULL,
    PRIMARY KEY (competition_id, participant_id),
    UNIQUE (competition_id, rank)
);

-- +goose Down
DROP TABLE competition_winners;
DROP TABLE competition_draws;
DROP TABLE competition_entries;
