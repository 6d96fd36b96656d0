-- Which ranks the game may assign (PUT /integrations/ingame/ranks, scope ranks:personal.ranks_set).
-- null: the default rule, a rank without management capabilities (settings.manage, ranks.manage,
-- personal.sheet.edit) may be assigned and taken away from the game, one with them may not.
-- true/false: the guild decided; only guild admins mark a management rank true.
alter table ranks add column game_assignable boolean;
