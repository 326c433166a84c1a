-- Append one command's events if the writer saw the current head; at most once per seat's command id.
-- KEYS: meta, events, cmds, feed
-- ARGV: table_id, command field (<seat>:<command id>), expected version, expected hash,
--       new head hash, outcome to record, sealed event bytes...
-- The head version lives in meta (never XLEN), so the check is one hash read.
local first_event = 7
local head = redis.call('HMGET', KEYS[1], 'version', 'hash', 'game')
if not head[1] then
  return {'missing'}
end
local prior = redis.call('HGET', KEYS[3], ARGV[2])
if prior then
  return {'duplicate', prior}
end
if head[1] ~= ARGV[3] or head[2] ~= ARGV[4] then
  return {'conflict', head[1], head[2]}
end
local base = tonumber(head[1])
local count = #ARGV - first_event + 1
for i = 1, count do
  local event = ARGV[first_event + i - 1]
  local version = base + i
  redis.call('XADD', KEYS[2], version .. '-1', 'e', event)
  redis.call('XADD', KEYS[4], '*', 'table', ARGV[1], 'game', head[3], 'v', version, 'e', event)
end
redis.call('HSET', KEYS[1], 'version', base + count, 'hash', ARGV[5])
redis.call('HSET', KEYS[3], ARGV[2], ARGV[6])
return {'ok'}
