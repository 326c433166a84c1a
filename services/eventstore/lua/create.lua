-- Create a table: meta, secret seed, set-up events and their feed entries, all or nothing.
-- KEYS: meta, events, feed, tables
-- ARGV: table_id, game, meta (TableMeta bytes), seed, head hash, sealed event bytes...
local first_event = 6
if redis.call('EXISTS', KEYS[1], KEYS[2]) > 0 then
  return {'exists'}
end
local count = #ARGV - first_event + 1
for i = 1, count do
  local event = ARGV[first_event + i - 1]
  redis.call('XADD', KEYS[2], i .. '-1', 'e', event)
  redis.call('XADD', KEYS[3], '*', 'table', ARGV[1], 'game', ARGV[2], 'v', i, 'e', event)
end
redis.call('HSET', KEYS[1], 'game', ARGV[2], 'meta', ARGV[3], 'seed', ARGV[4],
  'version', count, 'hash', ARGV[5])
redis.call('SADD', KEYS[4], ARGV[1])
return {'ok'}
