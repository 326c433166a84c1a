-- Record a rejection unless the seat's command id already has an outcome; return the one that stands.
-- KEYS: meta, cmds
-- ARGV: command field (<seat>:<command id>), outcome to record
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'missing'}
end
redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2])
return {'ok', redis.call('HGET', KEYS[2], ARGV[1])}
