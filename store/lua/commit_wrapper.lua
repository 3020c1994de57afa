-- One game's commit in one call: append.lua, then, when it appended, index_after_append.lua
-- (store/commit.py builds this script from the three files: the two scripts' bodies take
-- the places of the two marked lines, each a function of its own keys and arguments).
-- KEYS: the append's keys, then the index writes' keys
-- ARGV[1] how many of KEYS are the append's, ARGV[2] how many arguments are the append's,
-- then the append's arguments, then the index writes'
-- Returns the append's reply; an index write's error is raised as the index script raises it.
local function append(KEYS, ARGV)
--@append.lua
end
local function index_writes(KEYS, ARGV)
--@index_after_append.lua
end
local append_keys, append_args = tonumber(ARGV[1]), tonumber(ARGV[2])
local keys_a, args_a, keys_i, args_i = {}, {}, {}, {}
for i = 1, #KEYS do
  if i <= append_keys then keys_a[i] = KEYS[i] else keys_i[i - append_keys] = KEYS[i] end
end
for i = 3, #ARGV do
  if i - 2 <= append_args then args_a[i - 2] = ARGV[i] else args_i[i - 2 - append_args] = ARGV[i] end
end
local appended = append(keys_a, args_a)
if appended[1] == "ok" then
  local indexed = index_writes(keys_i, args_i)
  if type(indexed) == "table" and indexed.err then
    return indexed
  end
end
return appended
