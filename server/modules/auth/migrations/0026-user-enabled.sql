-- Accounts an administrator manages: a disabled account cannot sign in and its tokens stop
-- working; an account whose password an administrator reset must change it at the next sign-in.
ALTER TABLE user ADD COLUMN enabled INTEGER NOT NULL DEFAULT 1;
ALTER TABLE user ADD COLUMN must_change_password INTEGER NOT NULL DEFAULT 0;
