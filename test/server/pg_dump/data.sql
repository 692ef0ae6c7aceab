-- Rows for pg_dump_test.py, over psql_catalog/schema.sql: values that a
-- dump must carry exactly (NULLs, quotes, tabs, newlines, backslashes,
-- numerics, timestamps) and sequences advanced past their start.
INSERT INTO warehouse VALUES (1, 'w1', 'a''b', E'tab\there', 'city', 'NY', '123456789', 0.0825, 300000.00);
INSERT INTO warehouse VALUES (2, NULL, E'line\nbreak', E'back\\slash', NULL, NULL, NULL, NULL, NULL);
INSERT INTO district VALUES (1, 1, 'd1', 's1', 's2', 'c', 'NY', '000000000', 0.1, 30000.00, 3001);
INSERT INTO district VALUES (2, 1, 'd2', '', NULL, 'c', 'NY', '000000000', 0.0001, -1.50, 7);
INSERT INTO item VALUES (1, 10, 'widget', 12.50, 'ORIGINAL data'), (2, 20, 'gadget', 0.99, '\N');
SELECT nextval('history_ids'), nextval('history_ids'), nextval('history_ids');
INSERT INTO audit (w_id, amount, note) VALUES (1, 5.25, 'first'), (2, -3.00, NULL), (1, -1, 'third');
