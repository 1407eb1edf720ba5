-- The page mix of benchmarks/run-petclinic.sh for wrk: 40 % a page of the owner list, 25 % a search
-- by the start of a last name, 25 % one owner with pets and visits, 10 % the vets. At the end it
-- prints one JSON line with the totals, the latency of every answer (2xx and rejected alike) and
-- the 200 answers of each page, told apart by the page's title (a limit that admitted the expensive
-- pages more often than they arrive would change those shares).
local prefixes = {
  "Ad", "Ba", "Bl", "Br", "Ca", "Cl", "Co", "Da", "Ed", "Ev", "Fr", "Ga", "Gr", "Ha", "Hi", "Ja",
  "Jo", "Ki", "Le", "Lo", "Ma", "Mc", "Mi", "Mo", "Ne", "Pa", "Pe", "Ph", "Ro", "Sc", "Sm", "St",
  "Ta", "Th", "Tu", "Wa", "Wh", "Wi", "Wr", "Yo"
}

local threads = {}
setup = function(thread)
  table.insert(threads, thread)
  thread:set("seed", #threads)
end

pages = {list = 0, search = 0, owner = 0, vets = 0}
response = function(status, headers, body)
  if status ~= 200 then
    return
  end
  local page = "owner"
  if string.find(body, "<title>Owners, page", 1, true) then
    page = "list"
  elseif string.find(body, "<title>Owners named", 1, true) then
    page = "search"
  elseif string.find(body, "<title>Veterinarians", 1, true) then
    page = "vets"
  end
  pages[page] = pages[page] + 1
end

init = function(args)
  math.randomseed(seed * 7919 + os.time())
end

request = function()
  local r = math.random(100)
  local path
  if r <= 40 then
    path = "/owners?page=" .. math.random(0, 249)
  elseif r <= 65 then
    path = "/owners/search?lastName=" .. prefixes[math.random(#prefixes)]
  elseif r <= 90 then
    path = "/owners/" .. math.random(1, 5000)
  else
    path = "/vets"
  end
  return wrk.format("GET", path)
end

done = function(summary, latency, requests)
  local e = summary.errors
  local ok = {list = 0, search = 0, owner = 0, vets = 0}
  for _, thread in ipairs(threads) do
    local counted = thread:get("pages")
    for page, n in pairs(counted) do
      ok[page] = ok[page] + n
    end
  end
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"non2xx":%d,"connect_errors":%d,"read_errors":%d,' ..
    '"write_errors":%d,"timeouts":%d,"p50_us":%d,"p99_us":%d,' ..
    '"pages":{"list":%d,"search":%d,"owner":%d,"vets":%d}}\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(99), ok.list, ok.search, ok.owner, ok.vets))
end
