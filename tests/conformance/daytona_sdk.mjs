#!/usr/bin/env node
// Drive the Daytona emulator with the official TypeScript SDK (@daytonaio/sdk, pinned in
// package.json / package-lock.json beside this file; `npm ci` there installs it).
//
// Environment (set by tests/it/daytona_conformance.rs):
//   DAYTONA_API_URL, DAYTONA_API_KEY   the emulator
//   DAYTONA_USE_DEPRECATED_POLLING     "true": the SDK polls instead of using the event stream
//   OUTPOSTS_BARE_REPO                 a bare git repository on this host whose README is known
//   OUTPOSTS_REPO_README               the README's expected first line
//
// Each step prints `ok <step>`; the first failure prints `FAIL <step>: <why>` and exits 1.

import assert from 'node:assert/strict'
import { Daytona } from '@daytonaio/sdk'
import { io } from 'socket.io-client'

let current = 'start'
function step(name) {
  console.log(`ok ${name}`)
}
async function run(name, fn) {
  current = name
  await fn()
  step(name)
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

// Our own Socket.IO client records every state event: each must follow the previous one
// (its oldState is the last newState), in both SDK modes.
function watchEvents(apiUrl, apiKey) {
  const url = new URL(apiUrl)
  const events = []
  const socket = io(url.origin, {
    path: `${url.pathname.replace(/\/$/, '')}/socket.io/`,
    transports: ['websocket'],
    auth: { token: apiKey },
  })
  socket.on('sandbox.state.updated', (e) => events.push(e))
  const connected = new Promise((resolve, reject) => {
    socket.on('connect', resolve)
    socket.on('connect_error', reject)
  })
  return { socket, events, connected }
}

async function until(what, check, seconds = 30) {
  const end = Date.now() + seconds * 1000
  while (Date.now() < end) {
    if (await check()) return
    await sleep(100)
  }
  throw new Error(`timed out waiting for ${what}`)
}

async function main() {
  const repo = process.env.OUTPOSTS_BARE_REPO
  const readme = process.env.OUTPOSTS_REPO_README
  const polling = process.env.DAYTONA_USE_DEPRECATED_POLLING === 'true'
  const watcher = watchEvents(process.env.DAYTONA_API_URL, process.env.DAYTONA_API_KEY)
  await watcher.connected
  const daytona = new Daytona()
  const suffix = `${polling ? 'poll' : 'event'}-${process.pid}`
  let sb

  await run('create with labels and env', async () => {
    sb = await daytona.create(
      { name: `ts-sdk-${suffix}`, labels: { job: '42', mode: suffix }, envVars: { A: '1' }, autoStopInterval: 0 },
      { timeout: 60 },
    )
    assert.equal(sb.state, 'started')
    assert.equal(sb.labels.job, '42')
  })
  await run('get by id and by name', async () => {
    assert.equal((await daytona.get(sb.id)).name, `ts-sdk-${suffix}`)
    assert.equal((await daytona.get(`ts-sdk-${suffix}`)).id, sb.id)
  })
  await run('list by labels', async () => {
    const found = []
    for await (const s of daytona.list({ labels: { job: '42', mode: suffix } })) found.push(s.id)
    assert.deepEqual(found, [sb.id])
    const none = []
    for await (const s of daytona.list({ labels: { job: 'nope' } })) none.push(s.id)
    assert.deepEqual(none, [])
  })
  await run('set labels', async () => {
    const labels = await sb.setLabels({ job: '43', mode: suffix })
    assert.equal(labels.job, '43')
    assert.equal((await daytona.get(sb.id)).labels.job, '43')
  })
  await run('home and work dir', async () => {
    assert.equal(await sb.getUserHomeDir(), '/home/daytona')
    assert.ok((await sb.getWorkDir()).startsWith('/'))
  })
  await run('executeCommand with env and cwd', async () => {
    const r = await sb.process.executeCommand('echo $A-$B-$(pwd)', '/tmp', { B: '2' })
    assert.equal(r.exitCode, 0)
    assert.equal(r.result.trim(), '1-2-/tmp')
  })
  await run('executeCommand exit code', async () => {
    const r = await sb.process.executeCommand('echo out; exit 3')
    assert.equal(r.exitCode, 3)
    assert.equal(r.result.trim(), 'out')
  })
  const dir = '/home/daytona/work'
  await run('fs createFolder and upload/download', async () => {
    await sb.fs.createFolder(dir, '755')
    await sb.fs.uploadFile(Buffer.from('alpha needle\nbeta\n'), `${dir}/a.txt`)
    await sb.fs.uploadFile(Buffer.from('gamma needle\n'), `${dir}/b.md`)
    assert.equal((await sb.fs.downloadFile(`${dir}/a.txt`)).toString(), 'alpha needle\nbeta\n')
  })
  await run('fs listFiles and getFileDetails', async () => {
    const names = (await sb.fs.listFiles(dir)).map((f) => f.name).sort()
    assert.deepEqual(names, ['a.txt', 'b.md'])
    const info = await sb.fs.getFileDetails(`${dir}/a.txt`)
    assert.equal(info.size, 18)
    assert.equal(info.isDir, false)
  })
  await run('fs findFiles (content)', async () => {
    const matches = await sb.fs.findFiles(dir, 'needle')
    const got = matches.map((m) => [m.file, m.line, m.content]).sort()
    assert.deepEqual(got, [
      [`${dir}/a.txt`, 1, 'alpha needle'],
      [`${dir}/b.md`, 1, 'gamma needle'],
    ])
    assert.deepEqual(await sb.fs.findFiles(dir, 'absent-text'), [])
  })
  await run('fs searchFiles (name glob)', async () => {
    const r = await sb.fs.searchFiles(dir, '*.md')
    assert.deepEqual(r.files, [`${dir}/b.md`])
  })
  await run('fs replaceInFiles', async () => {
    const r = await sb.fs.replaceInFiles([`${dir}/a.txt`, `${dir}/missing.txt`], 'needle', 'pin')
    assert.equal(r.find((x) => x.file === `${dir}/a.txt`).success, true)
    assert.equal(r.find((x) => x.file === `${dir}/missing.txt`).success, false)
    assert.equal((await sb.fs.downloadFile(`${dir}/a.txt`)).toString(), 'alpha pin\nbeta\n')
  })
  await run('fs moveFiles', async () => {
    await sb.fs.moveFiles(`${dir}/b.md`, `${dir}/c.md`)
    const names = (await sb.fs.listFiles(dir)).map((f) => f.name).sort()
    assert.deepEqual(names, ['a.txt', 'c.md'])
    await assert.rejects(sb.fs.moveFiles(`${dir}/nope`, `${dir}/x`))
  })
  await run('fs setFilePermissions', async () => {
    await sb.fs.setFilePermissions(`${dir}/a.txt`, { mode: '600' })
    const info = await sb.fs.getFileDetails(`${dir}/a.txt`)
    assert.equal(info.permissions, '0600')
  })
  await run('fs deleteFile', async () => {
    await sb.fs.deleteFile(`${dir}/c.md`)
    assert.deepEqual((await sb.fs.listFiles(dir)).map((f) => f.name), ['a.txt'])
  })
  await run('git clone of a local bare repository', async () => {
    await sb.git.clone(repo, 'workspace/repo')
    const r = await sb.process.executeCommand('head -n1 workspace/repo/README')
    assert.equal(r.result.trim(), readme)
  })
  await run('git status', async () => {
    await sb.process.executeCommand('echo changed >> workspace/repo/README && touch workspace/repo/new.txt')
    const st = await sb.git.status('workspace/repo')
    assert.equal(st.currentBranch, 'main')
    const byName = Object.fromEntries(st.fileStatus.map((f) => [f.name, f]))
    assert.equal(byName.README.worktree, 'Modified')
    assert.equal(byName['new.txt'].worktree, 'Untracked')
  })
  await run('git branches', async () => {
    const b = await sb.git.branches('workspace/repo')
    assert.ok(b.branches.includes('main'), JSON.stringify(b))
  })
  await run('session keeps shell state', async () => {
    await sb.process.createSession('state')
    await sb.process.executeSessionCommand('state', { command: 'export X=7; cd /tmp; greet() { echo "hi $1"; }' })
    const r = await sb.process.executeSessionCommand('state', { command: 'echo "X=$X pwd=$(pwd)"; greet you' })
    assert.equal(r.exitCode, 0)
    assert.equal(r.stdout, 'X=7 pwd=/tmp\nhi you\n')
  })
  await run('session command exit code and stderr', async () => {
    const r = await sb.process.executeSessionCommand('state', { command: 'echo err >&2; false' })
    assert.equal(r.exitCode, 1)
    assert.equal(r.stderr, 'err\n')
  })
  await run('exit N ends the session shell', async () => {
    await sb.process.createSession('ending')
    const r = await sb.process.executeSessionCommand('ending', { command: 'exit 6' })
    assert.equal(r.exitCode, 6)
    await assert.rejects(sb.process.executeSessionCommand('ending', { command: 'echo again' }))
    await sb.process.deleteSession('ending')
  })
  let inputCmd
  await run('async command takes input', async () => {
    await sb.process.createSession('io')
    const r = await sb.process.executeSessionCommand('io', {
      command: 'read name; echo "hello $name"; read more; echo "then $more" >&2',
      runAsync: true,
    })
    inputCmd = r.cmdId
    assert.ok(inputCmd)
    assert.equal(r.exitCode, undefined)
    await sb.process.sendSessionCommandInput('io', inputCmd, 'world')
  })
  await run('followed logs over WebSocket', async () => {
    let out = ''
    let err = ''
    const follow = sb.process.getSessionCommandLogs('io', inputCmd, (c) => (out += c), (c) => (err += c))
    await until('the first answer', () => out.includes('hello world'))
    await sb.process.sendSessionCommandInput('io', inputCmd, 'more')
    await follow
    assert.ok(out.includes('hello world\n'), JSON.stringify(out))
    assert.equal(err, 'then more\n')
  })
  await run('getSessionCommand after the end, and input refused', async () => {
    const cmd = await sb.process.getSessionCommand('io', inputCmd)
    assert.equal(cmd.exitCode, 0)
    await assert.rejects(sb.process.sendSessionCommandInput('io', inputCmd, 'late'))
  })
  await run('getSessionCommandLogs', async () => {
    const logs = await sb.process.getSessionCommandLogs('io', inputCmd)
    assert.ok(logs.stdout.includes('hello world\n'), JSON.stringify(logs))
    assert.equal(logs.stderr, 'then more\n')
  })
  await run('listSessions and deleteSession', async () => {
    const ids = (await sb.process.listSessions()).map((s) => s.sessionId).sort()
    assert.deepEqual(ids, ['io', 'state'])
    await sb.process.deleteSession('io')
    const left = (await sb.process.listSessions()).map((s) => s.sessionId)
    assert.deepEqual(left, ['state'])
  })
  await run('codeRun', async () => {
    const r = await sb.process.codeRun('import sys\nprint("sum", 2 + 3, sys.argv[1])', { argv: ['x'] })
    assert.equal(r.exitCode, 0)
    assert.equal(r.result.trim(), 'sum 5 x')
  })
  await run('stop', async () => {
    await sb.stop(60)
    assert.equal(sb.state, 'stopped')
  })
  await run('start', async () => {
    await sb.start(60)
    assert.equal(sb.state, 'started')
    const r = await sb.process.executeCommand('cat /home/daytona/work/a.txt')
    assert.equal(r.result, 'alpha pin\nbeta\n')
  })
  await run('archive', async () => {
    await sb.stop(60)
    await sb.archive()
    await until('archived', async () => {
      await sb.refreshData()
      return sb.state === 'archived'
    })
  })
  await run('restore (start from archived)', async () => {
    await sb.start(60)
    assert.equal(sb.state, 'started')
    const r = await sb.process.executeCommand('cat /home/daytona/work/a.txt')
    assert.equal(r.result, 'alpha pin\nbeta\n')
  })
  const id = sb.id
  await run('delete', async () => {
    await sb.delete(60)
    await until('gone', async () => {
      try {
        await daytona.get(id)
        return false
      } catch {
        return true
      }
    })
  })
  await run('events: one per state change, each from the last', async () => {
    await until('the destroyed event', () =>
      watcher.events.some((e) => e.sandbox.id === id && e.newState === 'destroyed'),
    )
    const mine = watcher.events.filter((e) => e.sandbox.id === id)
    for (let i = 1; i < mine.length; i++) {
      assert.equal(mine[i].oldState, mine[i - 1].newState, JSON.stringify(mine.map((e) => [e.oldState, e.newState])))
    }
    const states = mine.map((e) => e.newState)
    const want = ['stopping', 'stopped', 'starting', 'started', 'stopping', 'stopped', 'archiving', 'archived', 'restoring', 'started', 'destroying', 'destroyed']
    let at = 0
    for (const s of states) if (s === want[at]) at++
    assert.equal(at, want.length, `states seen: ${states.join(' ')}`)
  })
  watcher.socket.close()
  await run('dispose', async () => {
    if (typeof daytona[Symbol.asyncDispose] === 'function') await daytona[Symbol.asyncDispose]()
  })
}

main().then(
  () => {
    console.log('done')
    process.exit(0)
  },
  (e) => {
    console.error(`FAIL ${current}: ${e && e.stack ? e.stack : e}`)
    process.exit(1)
  },
)
