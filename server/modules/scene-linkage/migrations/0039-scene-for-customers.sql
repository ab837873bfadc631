-- A hand-run scene an administrator offers to customer users (server/contract/scene-linkage.ts,
-- `forCustomers`): customers see and run only these, within their organizations' devices.
-- Existing scenes stay hidden from customers until marked.
ALTER TABLE scene_linkage ADD COLUMN for_customers INTEGER NOT NULL DEFAULT 0;
