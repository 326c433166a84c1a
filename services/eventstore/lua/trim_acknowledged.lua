-- Trim a stream below what every consumer group has acknowledged; returns entries removed.
-- KEYS: stream
-- An entry may go once every group has read it (it is at or below the group's
-- last-delivered id) and acknowledged it (it is below the group's oldest pending entry).
-- A stream without groups is never trimmed: nobody has said what it no longer needs.
local function before(a, b)
  -- Stream ids "<ms>-<seq>" compared as two unsigned integers of any length.
  local a_ms, a_seq = string.match(a, '^(%d+)-(%d+)$')
  local b_ms, b_seq = string.match(b, '^(%d+)-(%d+)$')
  if #a_ms ~= #b_ms then return #a_ms < #b_ms end
  if a_ms ~= b_ms then return a_ms < b_ms end
  if #a_seq ~= #b_seq then return #a_seq < #b_seq end
  return a_seq < b_seq
end

if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
local groups = redis.call('XINFO', 'GROUPS', KEYS[1])
if #groups == 0 then
  return 0
end
local floor = nil
for _, group in ipairs(groups) do
  local fields = {}
  for i = 1, #group, 2 do
    fields[group[i]] = group[i + 1]
  end
  -- Everything up to last-delivered was read; keeping that one entry costs nothing.
  local keep_from = fields['last-delivered-id']
  if tonumber(fields['pending']) > 0 then
    keep_from = redis.call('XPENDING', KEYS[1], fields['name'])[2]
  end
  if floor == nil or before(keep_from, floor) then
    floor = keep_from
  end
end
return redis.call('XTRIM', KEYS[1], 'MINID', floor)
