<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>SamAgent</name>
    <message>
        <source>Selection: 1 node (label {labels})</source>
        <translation>选择：1 个节点（标签 {labels}）</translation>
    </message>
    <message>
        <source>Selection: {count} nodes (labels {labels})</source>
        <translation>选择：{count} 个节点（标签 {labels}）</translation>
    </message>
    <message>
        <source>Selection: 1 element (label {labels})</source>
        <translation>选择：1 个单元（标签 {labels}）</translation>
    </message>
    <message>
        <source>Selection: {count} elements (labels {labels})</source>
        <translation>选择：{count} 个单元（标签 {labels}）</translation>
    </message>
    <message>
        <source>too many to act on (at most {limit}); make a set of them and name the set</source>
        <translation>数量过多，无法作用（最多 {limit} 个）；请将它们建成集合并在请求中指明该集合</translation>
    </message>
    <message>
        <source>Act on it</source>
        <translation>作用于所选</translation>
    </message>
    <message>
        <source>The request acts on the picked entities: each step's scope is their labels. Uncheck to ignore the selection.</source>
        <translation>请求作用于所选对象：每个步骤的范围即它们的标签。取消勾选则忽略所选。</translation>
    </message>
    <message>
        <source>A plan for each part, in order; each waits for Execute or Skip</source>
        <translation>按顺序为每个部件生成计划；每个计划等待“执行”或“跳过”</translation>
    </message>
    <message>
        <source>A rerun of run {source_run} (its calls, no model)</source>
        <translation>运行 {source_run} 的重新运行（沿用其调用，不询问模型）</translation>
    </message>
    <message>
        <source>Apply to other parts</source>
        <translation>应用到其他部件</translation>
    </message>
    <message>
        <source>Apply to other parts…</source>
        <translation>应用到其他部件…</translation>
    </message>
    <message>
        <source>Approve all</source>
        <translation>全部批准</translation>
    </message>
    <message>
        <source>Approve every plan without warnings, this one included; a plan with warnings still waits for you</source>
        <translation>批准每个没有警告的计划（包括这一个）；有警告的计划仍会等待您</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Decline this plan: nothing runs on this part</source>
        <translation>拒绝此计划：不会在此部件上运行任何内容</translation>
    </message>
    <message>
        <source>Done: {verified} of {total} part(s) verified</source>
        <translation>完成：{total} 个部件中 {verified} 个已验证</translation>
    </message>
    <message>
        <source>Go to the run this rerun repeats</source>
        <translation>转到此次重新运行所重复的运行</translation>
    </message>
    <message>
        <source>Model {model} of run {run_id} is not in this database.</source>
        <translation>运行 {run_id} 的模型 {model} 不在此数据库中。</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Parts of {model} (in this order):</source>
        <translation>{model} 的部件（按此顺序）：</translation>
    </message>
    <message>
        <source>Pick the parts, then Start (a plan for each) or Approve all</source>
        <translation>选择部件，然后点“开始”（每个部件一个计划）或“全部批准”</translation>
    </message>
    <message>
        <source>Put the selected part back as it was before its run</source>
        <translation>将所选部件恢复到其运行之前的状态</translation>
    </message>
    <message>
        <source>Run this plan on this part</source>
        <translation>在此部件上运行此计划</translation>
    </message>
    <message>
        <source>Run this verified run's calls again on other parts, without the model</source>
        <translation>在其他部件上再次运行此已验证运行的调用，不询问模型</translation>
    </message>
    <message>
        <source>Run {run_id} is no longer in the runs directory.</source>
        <translation>运行 {run_id} 已不在运行目录中。</translation>
    </message>
    <message>
        <source>Skip this part</source>
        <translation>跳过此部件</translation>
    </message>
    <message>
        <source>Source run</source>
        <translation>源运行</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Stop at the first part that does not verify</source>
        <translation>在第一个未通过验证的部件处停止</translation>
    </message>
    <message>
        <source>Undo selected</source>
        <translation>撤销所选</translation>
    </message>
    <message>
        <source>failed and restored</source>
        <translation>失败并已恢复</translation>
    </message>
    <message>
        <source>failed, not restored</source>
        <translation>失败，未恢复</translation>
    </message>
    <message>
        <source>planning</source>
        <translation>生成计划中</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>skipped by you; nothing was executed</source>
        <translation>您已跳过；未执行任何内容</translation>
    </message>
    <message>
        <source>the dialog was closed</source>
        <translation>对话框已关闭</translation>
    </message>
    <message>
        <source>the dialog was closed; nothing was executed</source>
        <translation>对话框已关闭；未执行任何内容</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>{part} ({index} of {total}): approved with Approve all</source>
        <translation>{part}（第 {index} 个，共 {total} 个）：已通过“全部批准”批准</translation>
    </message>
    <message>
        <source>{part} ({index} of {total}): observing and compiling</source>
        <translation>{part}（第 {index} 个，共 {total} 个）：观察并编译中</translation>
    </message>
    <message>
        <source>{part} ({index} of {total}): the plan waits — Execute or Skip this part</source>
        <translation>{part}（第 {index} 个，共 {total} 个）：计划等待中 — 执行或跳过此部件</translation>
    </message>
    <message>
        <source>↻ rerun: </source>
        <translation>↻ 重新运行：</translation>
    </message>
    <message>
        <source>Replay — recorded responses, not a live model. Pick a request under Examples; configure a live provider (DeepSeek, OpenAI, a local Ollama or vLLM URL) in Settings.</source>
        <translation>回放 — 录制的响应，不是在线模型。请在“示例”中选择一个请求；在“设置”中配置在线模型服务（DeepSeek、OpenAI、本地 Ollama 或 vLLM 地址）。</translation>
    </message>
    <message>
        <source>SAM Agent</source>
        <translation>SAM 智能助手</translation>
    </message>
    <message>
        <source>Pick a part, or type a new name to build one</source>
        <translation>选择一个部件，或输入新名称以新建部件</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>部件</translation>
    </message>
    <message>
        <source>Examples</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>Describe the change, e.g. build a 60 x 100 plate meshed 6 x 10 with QUAD elements (Ctrl+Enter submits)</source>
        <translation>描述要做的修改，例如：建立 60 x 100 的板，用 QUAD 单元划分 6 x 10（Ctrl+Enter 提交）</translation>
    </message>
    <message>
        <source>Submit</source>
        <translation>提交</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>Reasoning</source>
        <translation>推理过程</translation>
    </message>
    <message>
        <source>Confirm</source>
        <translation>确认</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>(choose an example request)</source>
        <translation>（选择一个示例请求）</translation>
    </message>
    <message>
        <source>Spec (proposed by the model; nothing runs until you confirm)</source>
        <translation>规格（由模型提出；确认之前不会执行任何操作）</translation>
    </message>
    <message>
        <source>the dock now shows {mode} {model}/{part}</source>
        <translation>面板现在显示 {mode} {model}/{part}</translation>
    </message>
    <message>
        <source>Not submitted — there is no part {part} in {model}; {mode} mode changes an existing part: pick one, or build it in Part mode first</source>
        <translation>未提交 — {model} 中没有部件 {part}；{mode}模式只修改已有部件：请选择一个部件，或先在“部件”模式中创建它</translation>
    </message>
    <message>
        <source>Type a request first</source>
        <translation>请先输入请求</translation>
    </message>
    <message>
        <source>Failed — the mode or target changed after the spec was written, so it no longer applies; submit again ({reason})</source>
        <translation>失败 — 规格写成后模式或目标已更改，规格不再适用；请重新提交（{reason}）</translation>
    </message>
    <message>
        <source>Failed — internal error: {error}</source>
        <translation>失败 — 内部错误：{error}</translation>
    </message>
    <message>
        <source>Not submitted — {error}</source>
        <translation>未提交 — {error}</translation>
    </message>
    <message>
        <source>Tool call rejected: {reason}</source>
        <translation>工具调用被拒绝：{reason}</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Elements</source>
        <translation>单元</translation>
    </message>
    <message>
        <source>Sets</source>
        <translation>集合</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>执行前</translation>
    </message>
    <message>
        <source>After</source>
        <translation>执行后</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查项</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>预期</translation>
    </message>
    <message>
        <source>Actual</source>
        <translation>实际</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>Error in {layer}: {message}</source>
        <translation>{layer} 出错：{message}</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>NO</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Open the run directory</source>
        <translation>打开运行目录</translation>
    </message>
    <message>
        <source>Enter a base URL first.</source>
        <translation>请先输入服务地址。</translation>
    </message>
    <message>
        <source>Connected ({count} models listed).</source>
        <translation>已连接（列出 {count} 个模型）。</translation>
    </message>
    <message>
        <source>SAM Agent settings</source>
        <translation>SAM 智能助手设置</translation>
    </message>
    <message>
        <source>(guess from the URL)</source>
        <translation>（根据地址推断）</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>服务地址</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>服务类型</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Connect timeout (s)</source>
        <translation>连接超时（秒）</translation>
    </message>
    <message>
        <source>Idle read timeout (s)</source>
        <translation>读取空闲超时（秒）</translation>
    </message>
    <message>
        <source>Total timeout (s)</source>
        <translation>总超时（秒）</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>正在测试…</translation>
    </message>
    <message>
        <source>The endpoint answered {status}: check the API key.</source>
        <translation>服务返回 {status}：请检查 API 密钥。</translation>
    </message>
    <message>
        <source>The endpoint answered {status} at {url}.</source>
        <translation>服务在 {url} 返回 {status}。</translation>
    </message>
    <message>
        <source>Connected, but model {model} is not listed ({count} models available).</source>
        <translation>已连接，但模型 {model} 不在列表中（可用 {count} 个模型）。</translation>
    </message>
    <message>
        <source>Set in the environment, overriding the saved values: {names}</source>
        <translation>已由环境变量设置，覆盖保存的值：{names}</translation>
    </message>
    <message>
        <source>Connection failed: {error}</source>
        <translation>连接失败：{error}</translation>
    </message>
    <message>
        <source>Invalid settings: {error}</source>
        <translation>设置无效：{error}</translation>
    </message>
    <message>
        <source>Not saved: {error}</source>
        <translation>未保存：{error}</translation>
    </message>
    <message>
        <source>The API key is kept in the system keyring.</source>
        <translation>API 密钥保存在系统密钥环中。</translation>
    </message>
    <message>
        <source>No system keyring is available: the API key is kept in plain text in {path}.</source>
        <translation>没有可用的系统密钥环：API 密钥以明文保存在 {path} 中。</translation>
    </message>
    <message>
        <source>Nothing was executed. Check the provider in Settings… (URL, model, API key) or pick an example request, then submit again.</source>
        <translation>未执行任何操作。请在“设置…”中检查模型服务（URL、模型、API 密钥），或选择一个示例请求，然后重新提交。</translation>
    </message>
    <message>
        <source>Nothing was executed. Check the mode, model and part shown above, then submit again.</source>
        <translation>未执行任何操作。请检查上方显示的模式、模型和部件，然后重新提交。</translation>
    </message>
    <message>
        <source>Nothing was executed. Check the request or the provider settings, then submit again.</source>
        <translation>未执行任何操作。请检查请求或模型服务设置，然后重新提交。</translation>
    </message>
    <message>
        <source>Collecting tool calls</source>
        <translation>正在收集工具调用</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>Observing the model (read-only)</source>
        <translation>正在读取模型（只读）</translation>
    </message>
    <message>
        <source>Exploring the model (read-only)</source>
        <translation>正在探查模型（只读）</translation>
    </message>
    <message>
        <source>Designing — the model is writing the spec</source>
        <translation>设计中 — 模型正在编写规格</translation>
    </message>
    <message>
        <source>Review — read the spec, then Confirm or Cancel</source>
        <translation>审阅 — 请阅读规格，然后确认或取消</translation>
    </message>
    <message>
        <source>Compiling</source>
        <translation>正在编译</translation>
    </message>
    <message>
        <source>Submitted to SAM</source>
        <translation>已提交到 SAM</translation>
    </message>
    <message>
        <source>Executed — verifying</source>
        <translation>已执行 — 正在校验</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Nothing was executed. Edit the request or confirm again.</source>
        <translation>未执行任何操作。请修改请求或再次确认。</translation>
    </message>
    <message>
        <source>The part may be partly modified: re-observe before the next run.</source>
        <translation>部件可能已被部分修改：下次运行前请重新读取模型。</translation>
    </message>
    <message>
        <source>Verified</source>
        <translation>已校验</translation>
    </message>
    <message>
        <source>Cancelled — nothing was executed</source>
        <translation>已取消 — 未执行任何操作</translation>
    </message>
    <message>
        <source>Failed — execution outcome unknown; re-observe before the next run</source>
        <translation>失败 — 执行结果未知；下次运行前请重新读取模型</translation>
    </message>
    <message>
        <source>observation</source>
        <translation>读取</translation>
    </message>
    <message>
        <source>design</source>
        <translation>设计</translation>
    </message>
    <message>
        <source>provider</source>
        <translation>模型服务</translation>
    </message>
    <message>
        <source>tool call</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <source>compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>execution</source>
        <translation>执行</translation>
    </message>
    <message>
        <source>verification</source>
        <translation>校验</translation>
    </message>
    <message>
        <source>target changed</source>
        <translation>目标已更改</translation>
    </message>
    <message>
        <source>Review — returned, nothing executed ({reason})</source>
        <translation>审阅 — 已退回，未执行任何操作（{reason}）</translation>
    </message>
    <message>
        <source>Failed — {reason}</source>
        <translation>失败 — {reason}</translation>
    </message>
    <message>
        <source>Collecting tool calls {collected}/{expected}</source>
        <translation>正在收集工具调用 {collected}/{expected}</translation>
    </message>
    <message>
        <source>{count} earlier run(s) were submitted to SAM but their outcome was never recorded: re-observe the part before the next run (see History).</source>
        <translation>有 {count} 次先前的运行已提交到 SAM，但其结果未被记录：下次运行前请重新读取部件（见“历史”）。</translation>
    </message>
    <message>
        <source>Explore the part first (read-only questions)</source>
        <translation>先探查部件（只读提问）</translation>
    </message>
    <message>
        <source>Before writing the spec, the model may ask read-only questions about regions and entities of the part. On by default for large parts.</source>
        <translation>在编写规格之前，模型可以就部件的区域和实体提出只读查询。大型部件默认开启。</translation>
    </message>
    <message>
        <source>Unchanged: {nodes} nodes, {elements} elements; {shapes}; sets: {sets}</source>
        <translation>未变化：{nodes} 个节点，{elements} 个单元；{shapes}；集合：{sets}</translation>
    </message>
    <message>
        <source>Nodes / elements</source>
        <translation>节点 / 单元</translation>
    </message>
    <message>
        <source>Materials</source>
        <translation>材料</translation>
    </message>
    <message>
        <source>Sections</source>
        <translation>截面</translation>
    </message>
    <message>
        <source>Elements with a section</source>
        <translation>已赋截面的单元</translation>
    </message>
    <message>
        <source>Oriented beams</source>
        <translation>已定向的梁单元</translation>
    </message>
    <message>
        <source>Observed before the run: {value}</source>
        <translation>运行前观测：{value}</translation>
    </message>
    <message>
        <source>Read back after the run (only what this run checked): {value}</source>
        <translation>运行后回读（仅本次运行检查的项）：{value}</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>The model is reasoning… (expand Reasoning to follow)</source>
        <translation>模型正在推理…（展开“推理过程”可跟随查看）</translation>
    </message>
    <message>
        <source>The script stopped in its checks before changing the part: fix what the check names, then submit a new request.</source>
        <translation>脚本在修改部件之前的检查中停止：请修正检查指出的问题，然后提交新的请求。</translation>
    </message>
    <message>
        <source>The part was put back exactly as it was: fix what the message names, then submit a new request.</source>
        <translation>部件已完全恢复原样：请修正消息指出的问题，然后提交新的请求。</translation>
    </message>
    <message>
        <source>A run is in progress; undo waits until it ends</source>
        <translation>正在运行；撤销需等待运行结束</translation>
    </message>
    <message>
        <source>Cannot undo run {run_id}: {reason}</source>
        <translation>无法撤销运行 {run_id}：{reason}</translation>
    </message>
    <message>
        <source>Failed — part restored as it was; {reason}</source>
        <translation>失败 — 部件已恢复原状（restored）；{reason}</translation>
    </message>
    <message>
        <source>Put the part back as it was before run {run_id}</source>
        <translation>将部件恢复到运行 {run_id} 之前的状态</translation>
    </message>
    <message>
        <source>Restoring — putting the part back as it was</source>
        <translation>正在恢复 — 将部件恢复原状</translation>
    </message>
    <message>
        <source>This SAM lacks {calls}: a failed run cannot be put back and may leave the part partly changed (the run says so), and runs cannot be undone.</source>
        <translation>此 SAM 缺少 {calls}：失败的运行无法恢复，部件可能被部分修改（运行结果会说明），且运行无法撤销。</translation>
    </message>
    <message>
        <source>Undo last run</source>
        <translation>撤销上次运行</translation>
    </message>
    <message>
        <source>Undo refused — {reason}</source>
        <translation>拒绝撤销 — {reason}</translation>
    </message>
    <message>
        <source>Undone — the part is back as it was before run {run_id}</source>
        <translation>已撤销 — 部件已恢复到运行 {run_id} 之前的状态</translation>
    </message>
    <message>
        <source>Undone — the part is back as it was before the run</source>
        <translation>已撤销 — 部件已恢复到运行之前的状态</translation>
    </message>
    <message>
        <source>No verified run to undo yet</source>
        <translation>尚无可撤销的已验证运行</translation>
    </message>
    <message>
        <source>(incomplete: {fields})</source>
        <translation>（不完整：{fields}）</translation>
    </message>
    <message>
        <source>(not in this run's directory)</source>
        <translation>（此运行目录中没有）</translation>
    </message>
    <message>
        <source>(so the live provider from the environment answers, whichever choice is saved here; unset them to choose here)</source>
        <translation>（因此无论这里保存了什么选择，都由环境中的在线模型服务应答；取消这些变量后才能在此选择）</translation>
    </message>
    <message>
        <source>A new run with the same request, mode and target</source>
        <translation>以相同的请求、模式和目标新建一次运行</translation>
    </message>
    <message>
        <source>A run is in progress or in review: finish or cancel it first.</source>
        <translation>有运行正在进行或等待审阅：请先完成或取消它。</translation>
    </message>
    <message>
        <source>After (read back)</source>
        <translation>之后（回读）</translation>
    </message>
    <message>
        <source>Answering: Replay — recorded responses, not a live model</source>
        <translation>应答方：回放 — 录制的响应，不是在线模型</translation>
    </message>
    <message>
        <source>Answering: no provider ({problem}) — open Settings…</source>
        <translation>应答方：无模型服务（{problem}）— 请打开“设置…”</translation>
    </message>
    <message>
        <source>Answering: {provider}</source>
        <translation>应答方：{provider}</translation>
    </message>
    <message>
        <source>Ask for changes</source>
        <translation>要求修改</translation>
    </message>
    <message>
        <source>Ask for changes: at most</source>
        <translation>要求修改：最多</translation>
    </message>
    <message>
        <source>Aspect ratio</source>
        <translation>长宽比</translation>
    </message>
    <message>
        <source>Audit finding</source>
        <translation>审计结果</translation>
    </message>
    <message>
        <source>Bounding box</source>
        <translation>包围盒</translation>
    </message>
    <message>
        <source>Chosen by --replay for this session; Settings… can change it</source>
        <translation>本次会话由 --replay 选定；可在“设置…”中更改</translation>
    </message>
    <message>
        <source>Coincident nodes</source>
        <translation>重合节点</translation>
    </message>
    <message>
        <source>Could not highlight: {error}</source>
        <translation>无法高亮显示：{error}</translation>
    </message>
    <message>
        <source>Counts</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Degenerate elements</source>
        <translation>退化单元</translation>
    </message>
    <message>
        <source>Details…</source>
        <translation>详情…</translation>
    </message>
    <message>
        <source>Duplicate elements</source>
        <translation>重复单元</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Free edges</source>
        <translation>自由边</translation>
    </message>
    <message>
        <source>Free nodes</source>
        <translation>自由节点</translation>
    </message>
    <message>
        <source>From your environment: {names}</source>
        <translation>来自你的环境变量：{names}</translation>
    </message>
    <message>
        <source>Generated script</source>
        <translation>生成的脚本</translation>
    </message>
    <message>
        <source>Hanging nodes</source>
        <translation>悬挂节点</translation>
    </message>
    <message>
        <source>Highlight these elements in the viewport</source>
        <translation>在视口中高亮这些单元</translation>
    </message>
    <message>
        <source>Inverted elements</source>
        <translation>反转单元</translation>
    </message>
    <message>
        <source>Labels: {labels}</source>
        <translation>编号：{labels}</translation>
    </message>
    <message>
        <source>Largest angle (°)</source>
        <translation>最大角（°）</translation>
    </message>
    <message>
        <source>Length unit (when the model has none)</source>
        <translation>长度单位（模型未声明时）</translation>
    </message>
    <message>
        <source>Length unit of the model</source>
        <translation>模型的长度单位</translation>
    </message>
    <message>
        <source>Live model — an OpenAI-compatible endpoint</source>
        <translation>在线模型 — 兼容 OpenAI 的接口</translation>
    </message>
    <message>
        <source>Locked: the spec was written for this mode and target. Cancel the run to change them.</source>
        <translation>已锁定：规格是为此模式和目标编写的。取消本次运行后才能更改。</translation>
    </message>
    <message>
        <source>Merge tolerance</source>
        <translation>合并容差</translation>
    </message>
    <message>
        <source>No file manager could open the run directory; it is {path} (Details… shows its files here).</source>
        <translation>没有文件管理器能打开运行目录；它位于 {path}（“详情…”可在此查看其中的文件）。</translation>
    </message>
    <message>
        <source>No provider is configured: the bundled replay answers</source>
        <translation>未配置模型服务：由内置回放应答</translation>
    </message>
    <message>
        <source>Not sent — {error}</source>
        <translation>未发送 — {error}</translation>
    </message>
    <message>
        <source>Operations: {operations}</source>
        <translation>操作：{operations}</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>模型服务</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>回放</translation>
    </message>
    <message>
        <source>Replay needs no connection: it answers the bundled example requests from recorded responses.</source>
        <translation>回放无需连接：它用录制的响应回答内置的示例请求。</translation>
    </message>
    <message>
        <source>Replay — recorded responses for the bundled examples (no model, no network)</source>
        <translation>回放 — 内置示例的录制响应（无模型、无网络）</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Review — the spec was revised with your remark; Confirm, ask for more changes, or Cancel</source>
        <translation>审阅 — 规格已按你的意见修改；请确认、继续要求修改或取消</translation>
    </message>
    <message>
        <source>Run again</source>
        <translation>再次运行</translation>
    </message>
    <message>
        <source>Run {run_id}</source>
        <translation>运行 {run_id}</translation>
    </message>
    <message>
        <source>Saved in Settings…</source>
        <translation>已保存在“设置…”中</translation>
    </message>
    <message>
        <source>Script output</source>
        <translation>脚本输出</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>Set in your environment, and used instead of what is saved here: {names}</source>
        <translation>已在你的环境中设置，并取代此处保存的值：{names}</translation>
    </message>
    <message>
        <source>Shapes</source>
        <translation>单元形状</translation>
    </message>
    <message>
        <source>Shown next to coordinates and dimensions when the model declares no unit</source>
        <translation>模型未声明单位时，显示在坐标和尺寸旁</translation>
    </message>
    <message>
        <source>Skew</source>
        <translation>偏斜</translation>
    </message>
    <message>
        <source>Smallest angle (°)</source>
        <translation>最小角（°）</translation>
    </message>
    <message>
        <source>Spec</source>
        <translation>规格</translation>
    </message>
    <message>
        <source>Spec versions</source>
        <translation>规格版本</translation>
    </message>
    <message>
        <source>Submit the request anew: the spec in review is dropped, nothing was executed</source>
        <translation>重新提交请求：丢弃正在审阅的规格，没有执行任何操作</translation>
    </message>
    <message>
        <source>Testing {url}…</source>
        <translation>正在测试 {url}…</translation>
    </message>
    <message>
        <source>The model declares no length unit: {unit} is the one chosen in Settings…</source>
        <translation>模型未声明长度单位：{unit} 是在“设置…”中选择的单位</translation>
    </message>
    <message>
        <source>The model rewrites the spec with your remark; nothing runs until you confirm</source>
        <translation>模型按你的意见重写规格；在你确认之前不会运行任何操作</translation>
    </message>
    <message>
        <source>The replay answers only the bundled example requests: pick one under Examples, or choose a live provider (DeepSeek, OpenAI, a local Ollama or vLLM URL) in Settings…</source>
        <translation>回放只回答内置的示例请求：请在“示例”中选择一个，或在“设置…”中选择在线模型服务（DeepSeek、OpenAI、本地 Ollama 或 vLLM 地址）</translation>
    </message>
    <message>
        <source>This host cannot highlight elements; their labels: {labels}</source>
        <translation>此宿主无法高亮单元；它们的编号：{labels}</translation>
    </message>
    <message>
        <source>This run recorded no request and target to run again.</source>
        <translation>此运行没有记录可再次运行的请求和目标。</translation>
    </message>
    <message>
        <source>Tokens in / out</source>
        <translation>令牌 输入 / 输出</translation>
    </message>
    <message>
        <source>Type what should change in the spec, then Ask for changes</source>
        <translation>请输入规格中需要修改的内容，然后点击“要求修改”</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Version {n}</source>
        <translation>第 {n} 版</translation>
    </message>
    <message>
        <source>Warping (°)</source>
        <translation>翘曲（°）</translation>
    </message>
    <message>
        <source>What should change in the spec?</source>
        <translation>规格中需要修改什么？</translation>
    </message>
    <message>
        <source>asked: {remark}</source>
        <translation>要求：{remark}</translation>
    </message>
    <message>
        <source>assign sections</source>
        <translation>指派截面</translation>
    </message>
    <message>
        <source>audit the mesh</source>
        <translation>审计网格</translation>
    </message>
    <message>
        <source>audit the part</source>
        <translation>审计部件</translation>
    </message>
    <message>
        <source>audit the properties</source>
        <translation>审计属性</translation>
    </message>
    <message>
        <source>build the part</source>
        <translation>新建部件</translation>
    </message>
    <message>
        <source>define materials and sections</source>
        <translation>定义材料和截面</translation>
    </message>
    <message>
        <source>density</source>
        <translation>密度</translation>
    </message>
    <message>
        <source>edit the part</source>
        <translation>编辑部件</translation>
    </message>
    <message>
        <source>element count</source>
        <translation>单元数</translation>
    </message>
    <message>
        <source>elements with a section</source>
        <translation>已指派截面的单元</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>为空</translation>
    </message>
    <message>
        <source>geometry unchanged</source>
        <translation>几何未改变</translation>
    </message>
    <message>
        <source>hanging nodes</source>
        <translation>悬挂节点</translation>
    </message>
    <message>
        <source>free nodes the run leaves</source>
        <translation>运行留下的自由节点</translation>
    </message>
    <message>
        <source>leaves nodes with no element (free nodes)</source>
        <translation>留下不属于任何单元的节点（自由节点）</translation>
    </message>
    <message>
        <source>material</source>
        <translation>材料</translation>
    </message>
    <message>
        <source>min {min}, mean {mean}, max {max}</source>
        <translation>最小 {min}，平均 {mean}，最大 {max}</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>node count</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>not configured</source>
        <translation>未配置</translation>
    </message>
    <message>
        <source>not read</source>
        <translation>未读取</translation>
    </message>
    <message>
        <source>oriented beam elements</source>
        <translation>已定向的梁单元</translation>
    </message>
    <message>
        <source>part exists</source>
        <translation>部件存在</translation>
    </message>
    <message>
        <source>present</source>
        <translation>存在</translation>
    </message>
    <message>
        <source>profile</source>
        <translation>剖面</translation>
    </message>
    <message>
        <source>read back</source>
        <translation>已回读</translation>
    </message>
    <message>
        <source>refine the mesh</source>
        <translation>细化网格</translation>
    </message>
    <message>
        <source>repair the part</source>
        <translation>修复部件</translation>
    </message>
    <message>
        <source>section</source>
        <translation>截面</translation>
    </message>
    <message>
        <source>set</source>
        <translation>集合</translation>
    </message>
    <message>
        <source>the provider could not be reached</source>
        <translation>无法连接模型服务</translation>
    </message>
    <message>
        <source>the provider did not answer in time</source>
        <translation>模型服务未能及时应答</translation>
    </message>
    <message>
        <source>the provider had a server error</source>
        <translation>模型服务出现服务器错误</translation>
    </message>
    <message>
        <source>the provider is rate-limiting requests</source>
        <translation>模型服务正在限制请求频率</translation>
    </message>
    <message>
        <source>the provider refused the API key</source>
        <translation>模型服务拒绝了 API 密钥</translation>
    </message>
    <message>
        <source>the provider refused the request</source>
        <translation>模型服务拒绝了请求</translation>
    </message>
    <message>
        <source>the provider's answer could not be read</source>
        <translation>无法读取模型服务的回答</translation>
    </message>
    <message>
        <source>the request was cancelled</source>
        <translation>请求已取消</translation>
    </message>
    <message>
        <source>thickness</source>
        <translation>厚度</translation>
    </message>
    <message>
        <source>transform the part</source>
        <translation>变换部件</translation>
    </message>
    <message>
        <source>units: {unit}</source>
        <translation>单位：{unit}</translation>
    </message>
    <message>
        <source>worst {worst} (limit {limit}); {count} beyond the limit</source>
        <translation>最差 {worst}（限值 {limit}）；{count} 个超出限值</translation>
    </message>
    <message>
        <source>written</source>
        <translation>已写入</translation>
    </message>
    <message>
        <source>{groups} group(s), {extra} extra element(s)</source>
        <translation>{groups} 组，多余单元 {extra} 个</translation>
    </message>
    <message>
        <source>{message} (this spec edits it)</source>
        <translation>{message}（此规格将编辑它）</translation>
    </message>
    <message>
        <source>{part} already has {nodes} nodes: ask to edit it, or pick a new part name</source>
        <translation>{part} 已有 {nodes} 个节点：请要求编辑它，或选择一个新的部件名称</translation>
    </message>
    <message>
        <source>{request}

run {run_id}, started {started} (UTC)</source>
        <translation>{request}

运行 {run_id}，开始于 {started}（UTC）</translation>
    </message>
    <message>
        <source>{shape} elements</source>
        <translation>{shape} 单元</translation>
    </message>
    <message>
        <source> time(s) per spec</source>
        <translation> 次（每个规格）</translation>
    </message>
    <message>
        <source>verified</source>
        <translation>已校验</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>已退回审阅</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>结果未知</translation>
    </message>
    <message>
        <source>incomplete</source>
        <translation>未完成</translation>
    </message>
    <message>
        <source>undone</source>
        <translation>已撤销</translation>
    </message>
    <message>
        <source>Execute</source>
        <translation>执行</translation>
    </message>
    <message>
        <source>current part</source>
        <translation>当前部件</translation>
    </message>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>moved (new place)</source>
        <translation>移动（新位置）</translation>
    </message>
    <message>
        <source>acted on (unchanged)</source>
        <translation>作用区域（不变）</translation>
    </message>
    <message>
        <source>Plan waits for Execute</source>
        <translation>计划等待“执行”</translation>
    </message>
    <message>
        <source>always</source>
        <translation>总是</translation>
    </message>
    <message>
        <source>only when destructive or warned</source>
        <translation>仅当有破坏性操作或警告时</translation>
    </message>
    <message>
        <source>never (execute right after compiling)</source>
        <translation>从不（编译后立即执行）</translation>
    </message>
    <message>
        <source>Plan: {summary}, waiting for you to execute</source>
        <translation>计划：{summary}，等待你点击“执行”</translation>
    </message>
    <message>
        <source>Repair rounds</source>
        <translation>修复轮数</translation>
    </message>
    <message>
        <source>Repair rounds after a rejected tool call or a compile diagnostic (0: none)</source>
        <translation>工具调用被拒绝或编译诊断后的修复轮数（0：不修复）</translation>
    </message>
    <message>
        <source>(as the profile says)</source>
        <translation>（按配置档默认）</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>Tool calls written as text</source>
        <translation>从文本中恢复工具调用</translation>
    </message>
    <message>
        <source>One tool call per round</source>
        <translation>每轮一个工具调用</translation>
    </message>
    <message>
        <source>Strict tool schemas</source>
        <translation>严格工具模式</translation>
    </message>
    <message>
        <source>Repair {repair}/{of}: {tool} — {headline}</source>
        <translation>修复 {repair}/{of}：{tool} — {headline}</translation>
    </message>
    <message>
        <source>nodes as planned</source>
        <translation>节点与计划一致</translation>
    </message>
    <message>
        <source>elements as planned</source>
        <translation>单元与计划一致</translation>
    </message>
    <message>
        <source>set members as planned</source>
        <translation>集合成员与计划一致</translation>
    </message>
    <message>
        <source>sections as planned</source>
        <translation>截面指派与计划一致</translation>
    </message>
    <message>
        <source>{count} nodes</source>
        <translation>{count} 个节点</translation>
    </message>
    <message>
        <source>{count} elements</source>
        <translation>{count} 个单元</translation>
    </message>
    <message>
        <source>{count} set(s)</source>
        <translation>{count} 个集合</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>Words</source>
        <translation>文字</translation>
    </message>
    <message>
        <source>Show the spec as data (spec.json), exactly as confirmed; click again for the words</source>
        <translation>以数据形式（spec.json）显示规格，与确认的内容完全一致；再点一次显示文字</translation>
    </message>
    <message>
        <source>Warning: {warning}</source>
        <translation>警告：{warning}</translation>
    </message>
    <message>
        <source>Repaired: {words}</source>
        <translation>已修复：{words}</translation>
    </message>
    <message>
        <source>Changed since the last version:</source>
        <translation>与上一版相比的改动：</translation>
    </message>
    <message>
        <source>Nothing changed: the model answered with the same spec</source>
        <translation>没有改动：模型给出了同样的规格</translation>
    </message>
    <message>
        <source>Replay cannot revise a spec: it answers with its recording, unchanged. Confirm or Cancel, or choose a live model in Settings to ask for changes</source>
        <translation>回放无法修改规格：它只给出录制的回答，不会改变。请确认或取消，或在设置中选择在线模型后再要求修改</translation>
    </message>
    <message>
        <source>Review — the spec was revised with your remark ({count} field(s) changed); Confirm, ask for more changes, or Cancel</source>
        <translation>审阅 — 已按你的意见修改规格（改动 {count} 个字段）；请确认、继续要求修改或取消</translation>
    </message>
    <message>
        <source>Review — the model answered with the same spec: nothing changed; Confirm, ask again, or Cancel</source>
        <translation>审阅 — 模型给出了同样的规格，没有改动；请确认、再次要求修改或取消</translation>
    </message>
    <message>
        <source>After the undo (read back)</source>
        <translation>撤销后（回读）</translation>
    </message>
    <message>
        <source>Before the undo</source>
        <translation>撤销前</translation>
    </message>
    <message>
        <source>Put {target} back as it was before {run}</source>
        <translation>将 {target} 恢复到{run}之前的状态</translation>
    </message>
    <message>
        <source>The part did not exist before that run: it is removed.</source>
        <translation>该次运行之前部件不存在：撤销会删除它。</translation>
    </message>
    <message>
        <source>The part goes back to {nodes} nodes and {elements} elements, as it was before that run; what the run changed is lost.</source>
        <translation>部件将恢复为该次运行之前的 {nodes} 个节点和 {elements} 个单元；该次运行所做的更改将丢失。</translation>
    </message>
    <message>
        <source>Undo a run</source>
        <translation>撤销运行</translation>
    </message>
    <message>
        <source>Undo the run</source>
        <translation>撤销该次运行</translation>
    </message>
    <message>
        <source>Undo {run} on {target}?</source>
        <translation>撤销 {target} 上{run}？</translation>
    </message>
    <message>
        <source>Undone — {target} is back as it was before the run of {started}; read back and checked</source>
        <translation>已撤销 — {target} 已恢复到 {started} 那次运行之前的状态；已回读并检查</translation>
    </message>
    <message>
        <source>Undone: {run} on {target}. The part was put back as it was before that run, then read back and checked:</source>
        <translation>已撤销：{target} 上{run}。部件已恢复到该次运行之前的状态，随后已回读并检查：</translation>
    </message>
    <message>
        <source>different</source>
        <translation>不同</translation>
    </message>
    <message>
        <source>elements as before the run</source>
        <translation>单元与运行前一致</translation>
    </message>
    <message>
        <source>fingerprint of the whole part (coordinates, connectivity, sets, sections)</source>
        <translation>整个部件的指纹（坐标、连接关系、集合、截面）</translation>
    </message>
    <message>
        <source>identical</source>
        <translation>相同</translation>
    </message>
    <message>
        <source>nodes as before the run</source>
        <translation>节点与运行前一致</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>part identical to before the run</source>
        <translation>部件与运行前完全相同</translation>
    </message>
    <message>
        <source>run id {run_id}</source>
        <translation>运行编号 {run_id}</translation>
    </message>
    <message>
        <source>sets as before the run</source>
        <translation>集合与运行前一致</translation>
    </message>
    <message>
        <source>the run of {started} (“{request}”)</source>
        <translation>{started} 的运行（“{request}”）</translation>
    </message>
    <message>
        <source>Connecting to {host} (try {attempt} of {of}) — the last try: {reason}</source>
        <translation>正在连接 {host}（第 {attempt} 次，共 {of} 次）— 上一次：{reason}</translation>
    </message>
    <message>
        <source>Could not talk to {host}: {error}</source>
        <translation>无法与 {host} 通信：{error}</translation>
    </message>
    <message>
        <source>Designing — waiting for the model to answer</source>
        <translation>设计中 — 等待模型回应</translation>
    </message>
    <message>
        <source>No answer from {host} within {seconds:g} s: check the base URL, and that the server is running and reachable from here.</source>
        <translation>{host} 在 {seconds:g} 秒内没有回应：请检查服务地址，并确认服务器正在运行且从本机可以访问。</translation>
    </message>
    <message>
        <source>No file manager could open the run directory; it is {path} (History → Details… shows its files here).</source>
        <translation>没有文件管理器能打开运行目录；它位于 {path}（“历史 → 详情…”可在此查看其中的文件）。</translation>
    </message>
    <message>
        <source>Nothing answers at {host}: check the base URL, and that the server is running.</source>
        <translation>{host} 没有任何服务应答：请检查服务地址，并确认服务器正在运行。</translation>
    </message>
    <message>
        <source>Nothing was executed. Check the API key in Settings…, then submit again.</source>
        <translation>未执行任何操作。请在“设置…”中检查 API 密钥，然后重新提交。</translation>
    </message>
    <message>
        <source>Nothing was executed. Check the base URL in Settings… and that the model server there is running, then submit again.</source>
        <translation>未执行任何操作。请在“设置…”中检查服务地址，并确认该地址上的模型服务器正在运行，然后重新提交。</translation>
    </message>
    <message>
        <source>Nothing was executed. Check the provider in Settings… (URL, model, API key), then submit again.</source>
        <translation>未执行任何操作。请在“设置…”中检查模型服务（URL、模型、API 密钥），然后重新提交。</translation>
    </message>
    <message>
        <source>Nothing was executed. Pick a request under Examples (the replay answers only those), or choose a live model in Settings….</source>
        <translation>未执行任何操作。请在“示例”中选择一个请求（回放只应答这些请求），或在“设置…”中选择在线模型。</translation>
    </message>
    <message>
        <source>nothing answers at {host}</source>
        <translation>{host} 没有任何服务应答</translation>
    </message>
    <message>
        <source>{host} is not a host name this computer knows</source>
        <translation>{host} 不是本机能解析的主机名</translation>
    </message>
    <message>
        <source>{host} is not a host name this computer knows: check the base URL.</source>
        <translation>{host} 不是本机能解析的主机名：请检查服务地址。</translation>
    </message>
    <message>
        <source>{host} took the connection but did not answer in time.</source>
        <translation>{host} 接受了连接，但没有及时回应。</translation>
    </message>
    <message>
        <source>(as usual for this kind of server)</source>
        <translation>（按此类服务器的惯例）</translation>
    </message>
    <message>
        <source>(from the URL: {kind})</source>
        <translation>（根据地址：{kind}）</translation>
    </message>
    <message>
        <source>Ask for one operation per answer</source>
        <translation>每次回答只要求一个操作</translation>
    </message>
    <message>
        <source>Corrections after a rejected operation</source>
        <translation>操作被拒绝后的更正次数</translation>
    </message>
    <message>
        <source>How often the model may correct an operation the plugin rejected, before the run goes back to Review (0: never)</source>
        <translation>插件拒绝某个操作后，模型最多可更正几次，之后运行回到审阅（0：不更正）</translation>
    </message>
    <message>
        <source>Idle timeout (s): the longest silence in an answer</source>
        <translation>空闲超时（秒）：回答中最长的停顿</translation>
    </message>
    <message>
        <source>Kind of server</source>
        <translation>服务器类型</translation>
    </message>
    <message>
        <source>Not saved yet — {words} Press Save anyway to keep these settings all the same.</source>
        <translation>尚未保存 — {words} 如仍要保留这些设置，请点击“仍然保存”。</translation>
    </message>
    <message>
        <source>Save anyway</source>
        <translation>仍然保存</translation>
    </message>
    <message>
        <source>Testing {url} before saving…</source>
        <translation>保存前正在测试 {url}…</translation>
    </message>
    <message>
        <source>The model writes its operations as text</source>
        <translation>模型以文本形式写出操作</translation>
    </message>
    <message>
        <source>The server holds answers to the exact format</source>
        <translation>服务器强制回答符合确切格式</translation>
    </message>
    <message>
        <source>Total timeout (s): the longest one answer may take</source>
        <translation>总超时（秒）：一次回答最长可用时间</translation>
    </message>
    <message>
        <source>llama.cpp server</source>
        <translation>llama.cpp 服务器</translation>
    </message>
    <message>
        <source>another OpenAI-compatible server</source>
        <translation>其他兼容 OpenAI 的服务器</translation>
    </message>
    <message>
        <source>OpenAI</source>
        <translation>OpenAI</translation>
    </message>
    <message>
        <source>DeepSeek</source>
        <translation>DeepSeek</translation>
    </message>
    <message>
        <source>Ollama</source>
        <translation>Ollama</translation>
    </message>
    <message>
        <source>vLLM</source>
        <translation>vLLM</translation>
    </message>
    <message>
        <source>1 destructive</source>
        <translation>1 处破坏性更改</translation>
    </message>
    <message>
        <source>1 element</source>
        <translation>1 个单元</translation>
    </message>
    <message>
        <source>1 node</source>
        <translation>1 个节点</translation>
    </message>
    <message>
        <source>1 operation</source>
        <translation>1 个操作</translation>
    </message>
    <message>
        <source>1 warning</source>
        <translation>1 个警告</translation>
    </message>
    <message>
        <source>After: {state}</source>
        <translation>之后：{state}</translation>
    </message>
    <message>
        <source>As printed</source>
        <translation>原样输出</translation>
    </message>
    <message>
        <source>Audit: nodes closer than this count as coincident</source>
        <translation>审计：距离小于此值的节点视为重合</translation>
    </message>
    <message>
        <source>Before: {state}</source>
        <translation>之前：{state}</translation>
    </message>
    <message>
        <source>Destructive: {text}</source>
        <translation>破坏性：{text}</translation>
    </message>
    <message>
        <source>Repair: merged nodes closer than</source>
        <translation>修复：合并距离小于此值的节点</translation>
    </message>
    <message>
        <source>Show it in words</source>
        <translation>以文字显示</translation>
    </message>
    <message>
        <source>Show the plan in words</source>
        <translation>以文字显示计划</translation>
    </message>
    <message>
        <source>Show the raw plan (as in plan.json, with its hash)</source>
        <translation>显示原始计划（与 plan.json 相同，含其哈希）</translation>
    </message>
    <message>
        <source>Show what the script printed, word for word (script_output.txt)</source>
        <translation>逐字显示脚本的输出（script_output.txt）</translation>
    </message>
    <message>
        <source>Show {file} as written</source>
        <translation>按原文显示 {file}</translation>
    </message>
    <message>
        <source>The distance the audit uses to find coincident and degenerate entities: relative to the part's size. A merge uses the tolerance its operation names (shown as the repair's row).</source>
        <translation>审计用来查找重合与退化对象的距离：相对于部件尺寸。合并使用其操作指定的容差（见“修复”一行）。</translation>
    </message>
    <message>
        <source>The tolerance the repair operation used to merge coincident nodes</source>
        <translation>修复操作合并重合节点时使用的容差</translation>
    </message>
    <message>
        <source>Warning: {text}</source>
        <translation>警告：{text}</translation>
    </message>
    <message>
        <source>[destructive]</source>
        <translation>[破坏性]</translation>
    </message>
    <message>
        <source>already there as asked: {names}</source>
        <translation>已按要求存在：{names}</translation>
    </message>
    <message>
        <source>as before the run</source>
        <translation>与运行前相同</translation>
    </message>
    <message>
        <source>beams</source>
        <translation>梁</translation>
    </message>
    <message>
        <source>beams oriented with n1 = {n1} ({count} beams)</source>
        <translation>梁方向 n1 = {n1}（{count} 根梁）</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>已改变</translation>
    </message>
    <message>
        <source>coincident nodes</source>
        <translation>重合节点</translation>
    </message>
    <message>
        <source>compared with the plan</source>
        <translation>与计划比较</translation>
    </message>
    <message>
        <source>counts</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>counts and names</source>
        <translation>数量和名称</translation>
    </message>
    <message>
        <source>created {names}</source>
        <translation>已创建 {names}</translation>
    </message>
    <message>
        <source>degenerate elements</source>
        <translation>退化单元</translation>
    </message>
    <message>
        <source>delete duplicate elements</source>
        <translation>删除重复单元</translation>
    </message>
    <message>
        <source>delete free nodes</source>
        <translation>删除自由节点</translation>
    </message>
    <message>
        <source>duplicate elements</source>
        <translation>重复单元</translation>
    </message>
    <message>
        <source>elements</source>
        <translation>单元</translation>
    </message>
    <message>
        <source>free nodes</source>
        <translation>自由节点</translation>
    </message>
    <message>
        <source>in the box {low} to {high}</source>
        <translation>位于 {low} 到 {high} 的范围内</translation>
    </message>
    <message>
        <source>nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>note: {note}</source>
        <translation>说明：{note}</translation>
    </message>
    <message>
        <source>nothing assigned</source>
        <translation>未赋予任何内容</translation>
    </message>
    <message>
        <source>nothing to define</source>
        <translation>无需定义</translation>
    </message>
    <message>
        <source>once</source>
        <translation>一次</translation>
    </message>
    <message>
        <source>quality</source>
        <translation>质量</translation>
    </message>
    <message>
        <source>replaced: {what}</source>
        <translation>已替换：{what}</translation>
    </message>
    <message>
        <source>section {section} on {count} elements</source>
        <translation>截面 {section} 赋予 {count} 个单元</translation>
    </message>
    <message>
        <source>sections {names}</source>
        <translation>截面 {names}</translation>
    </message>
    <message>
        <source>sets {names}</source>
        <translation>集合 {names}</translation>
    </message>
    <message>
        <source>the part's default</source>
        <translation>部件默认值</translation>
    </message>
    <message>
        <source>these operations</source>
        <translation>这些操作</translation>
    </message>
    <message>
        <source>twice</source>
        <translation>两次</translation>
    </message>
    <message>
        <source>{count} destructive</source>
        <translation>{count} 处破坏性更改</translation>
    </message>
    <message>
        <source>{count} elements with a section</source>
        <translation>{count} 个单元已有截面</translation>
    </message>
    <message>
        <source>{count} existing nodes used again</source>
        <translation>重用 {count} 个已有节点</translation>
    </message>
    <message>
        <source>{count} operations</source>
        <translation>{count} 个操作</translation>
    </message>
    <message>
        <source>{count} warnings</source>
        <translation>{count} 个警告</translation>
    </message>
    <message>
        <source>{nodes} nodes, {elements} elements</source>
        <translation>{nodes} 个节点，{elements} 个单元</translation>
    </message>
    <message>
        <source>{n} times</source>
        <translation>{n} 次</translation>
    </message>
    <message>
        <source>{refined} elements refined {levels}, {created} new elements in their place; {nodes} new nodes</source>
        <translation>细化了 {refined} 个单元{levels}，由 {created} 个新单元取代；新增 {nodes} 个节点</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source> ({shapes})</source>
        <translation>（{shapes}）</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>Bearer token</source>
        <translation>Bearer 令牌</translation>
    </message>
    <message>
        <source>Copy it now into the client's configuration (Authorization: Bearer …): it is shown only once.</source>
        <translation>请立即复制到客户端配置中（Authorization: Bearer …）：它只显示这一次。</translation>
    </message>
    <message>
        <source>MCP server for external agents (Claude Desktop, Cursor, …)</source>
        <translation>供外部智能体使用的 MCP 服务器（Claude Desktop、Cursor 等）</translation>
    </message>
    <message>
        <source>MCP server: cannot listen on 127.0.0.1:{port} ({error})</source>
        <translation>MCP 服务器：无法在 127.0.0.1:{port} 上监听（{error}）</translation>
    </message>
    <message>
        <source>MCP server: make a token first (Settings: New token)</source>
        <translation>MCP 服务器：请先生成令牌（设置：新令牌）</translation>
    </message>
    <message>
        <source>MCP server: off</source>
        <translation>MCP 服务器：已关闭</translation>
    </message>
    <message>
        <source>MCP server: serving at {url}</source>
        <translation>MCP 服务器：正在 {url} 提供服务</translation>
    </message>
    <message>
        <source>MCP server: the MCP SDK is not installed (pip install 'mcp==2.3.0' into SAM's Python: docs/mcp.md)</source>
        <translation>MCP 服务器：未安装 MCP SDK（在 SAM 的 Python 中执行 pip install 'mcp==2.3.0'：见 docs/mcp.md）</translation>
    </message>
    <message>
        <source>this dock</source>
        <translation>本停靠窗口</translation>
    </message>
    <message>
        <source>the client's form</source>
        <translation>客户端的表单</translation>
    </message>
    <message>
        <source>sam-agent approve in a terminal</source>
        <translation>在终端中运行 sam-agent approve</translation>
    </message>
    <message>
        <source>A person approves on</source>
        <translation>由人批准的途径</translation>
    </message>
    <message>
        <source>An agent that runs commands as you can also type at a terminal: turn the terminal off where such agents run (docs/mcp.md, Trust boundary).</source>
        <translation>能以您的身份运行命令的代理也能在终端中输入：在运行此类代理的地方请关闭终端途径（见 docs/mcp.md 的“信任边界”）。</translation>
    </message>
    <message>
        <source>New token</source>
        <translation>新令牌</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source>Serve on 127.0.0.1 while the dock is open (you approve every change)</source>
        <translation>停靠窗口打开时在 127.0.0.1 上提供服务（每项更改都由您批准）</translation>
    </message>
    <message>
        <source>a token is set</source>
        <translation>已设置令牌</translation>
    </message>
    <message>
        <source>no token yet</source>
        <translation>尚无令牌</translation>
    </message>
    <message>
        <source>LANGUAGE</source>
        <translation>zh</translation>
    </message>
    <message>
        <source>step {number} ✓ {text}</source>
        <translation>步骤 {number} ✓ {text}</translation>
    </message>
    <message>
        <source>Edit the spec</source>
        <translation>编辑规格</translation>
    </message>
    <message>
        <source>Change the steps yourself, as fields or as JSON; Confirm reads and reviews your spec, then plans it</source>
        <translation>自己修改步骤（字段或 JSON）；“确认”会读取并审阅你的规格，然后生成计划</translation>
    </message>
    <message>
        <source>Edit the steps: each field is checked as you type. Confirm reads and reviews the edited spec against the part, then plans it.</source>
        <translation>编辑步骤：每个字段在输入时即被检查。“确认”会按部件读取并审阅编辑后的规格，然后生成计划。</translation>
    </message>
    <message>
        <source>Fields</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Discard the edit</source>
        <translation>放弃编辑</translation>
    </message>
    <message>
        <source>Back to the spec as it stands; nothing you typed is kept</source>
        <translation>回到现有规格；不保留你输入的任何内容</translation>
    </message>
    <message>
        <source>The fields cannot show this spec ({reason}): correct it in JSON</source>
        <translation>字段无法显示此规格（{reason}）：请在 JSON 中更正</translation>
    </message>
    <message>
        <source>the spec is one JSON object</source>
        <translation>规格是一个 JSON 对象</translation>
    </message>
    <message>
        <source>Review — the edited spec has {count} problem(s), shown on its fields; nothing was confirmed: correct them, or Discard the edit</source>
        <translation>审阅 — 编辑后的规格有 {count} 个问题，已显示在相应字段上；未确认任何内容：请更正，或放弃编辑</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>one sentence: what the change does</source>
        <translation>一句话：此更改做什么</translation>
    </message>
    <message>
        <source>Step {number}</source>
        <translation>步骤 {number}</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Remove this step from the spec</source>
        <translation>从规格中删除此步骤</translation>
    </message>
    <message>
        <source>Add step</source>
        <translation>添加步骤</translation>
    </message>
    <message>
        <source>Add a step of the chosen action at the end</source>
        <translation>在末尾添加所选动作的步骤</translation>
    </message>
    <message>
        <source>Expected results (optional)</source>
        <translation>预期结果（可选）</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>a note on the step (optional)</source>
        <translation>对此步骤的备注（可选）</translation>
    </message>
    <message>
        <source>(not stated)</source>
        <translation>（未指定）</translation>
    </message>
    <message>
        <source>the whole part</source>
        <translation>整个部件</translation>
    </message>
    <message>
        <source>by labels</source>
        <translation>按编号</translation>
    </message>
    <message>
        <source>a set</source>
        <translation>集合</translation>
    </message>
    <message>
        <source>by shape</source>
        <translation>按形状</translation>
    </message>
    <message>
        <source>in a box</source>
        <translation>框内</translation>
    </message>
    <message>
        <source>min</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>max</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>e.g. 1-5, 9</source>
        <translation>例如 1-5, 9</translation>
    </message>
    <message>
        <source>the set's name</source>
        <translation>集合名称</translation>
    </message>
    <message>
        <source>(x, y, z); (x, y, z)</source>
        <translation>(x, y, z); (x, y, z)</translation>
    </message>
    <message>
        <source>names, separated by commas</source>
        <translation>名称，用逗号分隔</translation>
    </message>
    <message>
        <source>numbers, separated by commas</source>
        <translation>数字，用逗号分隔</translation>
    </message>
    <message>
        <source>a JSON list, one item a line</source>
        <translation>JSON 列表，每行一项</translation>
    </message>
    <message>
        <source>a count, or a JSON list</source>
        <translation>数量，或 JSON 列表</translation>
    </message>
    <message>
        <source>not JSON ({error}): write it as the JSON tab shows it</source>
        <translation>不是有效的 JSON（{error}）：请按 JSON 标签页所示的格式书写</translation>
    </message>
    <message>
        <source>the range {range} holds too many labels to list: name a set or a box instead</source>
        <translation>范围 {range} 包含的编号太多，无法逐一列出：请改用集合或框</translation>
    </message>
    <message>
        <source>write the points as (x, y, z); (x, y, z), or as JSON [[x, y, z], …]</source>
        <translation>请将点写成 (x, y, z); (x, y, z)，或 JSON [[x, y, z], …]</translation>
    </message>
    <message>
        <source> (computed from the spec)</source>
        <translation>（由规格计算）</translation>
    </message>
    <message>
        <source> (computed from step {number})</source>
        <translation>（由步骤 {number} 计算）</translation>
    </message>
    <message>
        <source> (computed from steps {numbers})</source>
        <translation>（由步骤 {numbers} 计算）</translation>
    </message>
    <message>
        <source>{client} asks to execute run {run_id} on {target} ({mode})</source>
        <translation>{client} 请求在 {target}（{mode}）上执行运行 {run_id}</translation>
    </message>
    <message>
        <source>{client} asks to undo run {run_id} on {target}</source>
        <translation>{client} 请求撤销 {target} 上的运行 {run_id}</translation>
    </message>
    <message>
        <source>Undo run {run_id}: {target} goes back as it was before it</source>
        <translation>撤销运行 {run_id}：{target} 恢复到该运行之前的状态</translation>
    </message>
    <message>
        <source>Undo run {run_id}: {nodes} → 0 nodes, {elements} → 0 elements (the part did not exist before it: it is removed)</source>
        <translation>撤销运行 {run_id}：节点 {nodes} → 0，单元 {elements} → 0（该运行之前部件不存在：部件将被删除）</translation>
    </message>
    <message>
        <source>Undo run {run_id}: {now_nodes} → {back_nodes} nodes, {now_elements} → {back_elements} elements</source>
        <translation>撤销运行 {run_id}：节点 {now_nodes} → {back_nodes}，单元 {now_elements} → {back_elements}</translation>
    </message>
    <message>
        <source>Plan — {client} asks to execute run {run_id} on {target}: {summary}. Execute or Cancel</source>
        <translation>计划 — {client} 请求在 {target} 上执行运行 {run_id}：{summary}。请点击“执行”或“取消”</translation>
    </message>
    <message>
        <source>Undo — {client} asks: {change}. Undo or Cancel</source>
        <translation>撤销 — {client} 请求：{change}。请点击“撤销”或“取消”</translation>
    </message>
    <message>
        <source>Approved in the dock — undoing run {run_id} now</source>
        <translation>已在停靠窗口中批准 — 正在撤销运行 {run_id}</translation>
    </message>
    <message>
        <source>Declined in the dock — run {run_id} is not undone; nothing changed</source>
        <translation>已在停靠窗口中拒绝 — 运行 {run_id} 未被撤销；没有任何更改</translation>
    </message>
    <message>
        <source>Declined in the dock — run {run_id} does not execute; nothing changed</source>
        <translation>已在停靠窗口中拒绝 — 运行 {run_id} 不会执行；没有任何更改</translation>
    </message>
    <message>
        <source>Approved in the dock — run {run_id} executes now</source>
        <translation>已在停靠窗口中批准 — 运行 {run_id} 正在执行</translation>
    </message>
    <message>
        <source>Approved in the dock — run {run_id} executes when {client} calls execute_plan again</source>
        <translation>已在停靠窗口中批准 — 运行 {run_id} 将在 {client} 再次调用 execute_plan 时执行</translation>
    </message>
    <message>
        <source>{words} — run {run_id} of {client} (MCP)</source>
        <translation>{words} — {client} 的运行 {run_id}（MCP）</translation>
    </message>
    <message>
        <source>Request: {request}</source>
        <translation>请求：{request}</translation>
    </message>
    <message>
        <source>Where the spec disagrees with the part now:</source>
        <translation>规格与部件当前状态不一致之处：</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Approve the MCP client's undo: the part goes back as it was before the run</source>
        <translation>批准该 MCP 客户端的撤销：部件恢复到该运行之前的状态</translation>
    </message>
    <message>
        <source>An MCP client's question waits in the dock: answer it first</source>
        <translation>停靠窗口中有一个 MCP 客户端的请求在等待：请先回答它</translation>
    </message>
    <message>
        <source>Run {run_id}: nothing waits in the dock any more (decided on another channel, or its time ran out)</source>
        <translation>运行 {run_id}：停靠窗口中已没有待决定的请求（已在其他途径上决定，或已超时）</translation>
    </message>
    <message>
        <source>Run {run_id} on {model}/{part}: “{request}”. Its operations ({operations}) are planned again for each part you pick, each shown as a plan before it runs; no model is asked.</source>
        <translation>运行 {run_id}（{model}/{part}）：“{request}”。它的操作（{operations}）会为您选择的每个部件重新规划，运行前各自显示为计划；不询问模型。</translation>
    </message>
    <message>
        <source>The spec's {count} acted on counted what its scope picks on {source}: not compared on {target}.</source>
        <translation>规格中的选中数 {count} 统计的是其范围在 {source} 上选中的对象：在 {target} 上不作比较。</translation>
    </message>
    <message>
        <source>The spec's {count} {noun} were counted on {source}, whose count before its run was not kept: not compared on {target}.</source>
        <translation>规格中的 {count} 个{noun}是在 {source} 上统计的，而该运行之前的数量没有保存：在 {target} 上不作比较。</translation>
    </message>
    <message>
        <source>plan waits for you</source>
        <translation>计划等待您确认</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>未改变</translation>
    </message>
    <message>
        <source>rest of the part unchanged</source>
        <translation>部件其余部分未改变</translation>
    </message>
    <message>
        <source>the message is below</source>
        <translation>信息见下方</translation>
    </message>
    <message>
        <source>approved, running</source>
        <translation>已批准，运行中</translation>
    </message>
    <message>
        <source>The spec's {count} {noun} on {source} are its count before the run: on {target} that is {now}.</source>
        <translation>规格中 {source} 上的 {count} 个{noun}是其运行之前的数量：在 {target} 上为 {now}。</translation>
    </message>
    <message>
        <source>The spec's {count} {noun} on {source} ({before} before, {change}) are compared as a change on {target}: {now} before, {after} after these operations.</source>
        <translation>规格中 {source} 上的 {count} 个{noun}（之前 {before}，变化 {change}）在 {target} 上按变化比较：之前 {now}，这些操作之后 {after}。</translation>
    </message>
    <message>
        <source>Units of the model: {units}</source>
        <translation>模型的单位：{units}</translation>
    </message>
    <message>
        <source>The model declares no units: {units}, the ones chosen in Settings…</source>
        <translation>模型未声明单位：{units}，即在“设置…”中选择的单位</translation>
    </message>
    <message>
        <source>Shown with every value (coordinates, dimensions, stresses, densities) when the model declares no units</source>
        <translation>模型未声明单位时，随每个数值显示（坐标、尺寸、应力、密度）</translation>
    </message>
    <message>
        <source>Units (when the model has none)</source>
        <translation>单位（模型未声明时）</translation>
    </message>
    <message>
        <source>length</source>
        <translation>长度</translation>
    </message>
    <message>
        <source>stress</source>
        <translation>应力</translation>
    </message>
    <message>
        <source>mass</source>
        <translation>质量</translation>
    </message>
    <message>
        <source>Local model (on this computer)</source>
        <translation>本机模型（在这台计算机上）</translation>
    </message>
    <message>
        <source>Stopped: what was done is kept, and Set up resumes from there.</source>
        <translation>已停止：已完成的部分会保留，再次“设置”会从那里继续。</translation>
    </message>
    <message>
        <source>Starting the local model on this computer…</source>
        <translation>正在这台计算机上启动本机模型…</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Setting up…</source>
        <translation>正在设置…</translation>
    </message>
    <message>
        <source>Set up</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Use it</source>
        <translation>使用它</translation>
    </message>
    <message>
        <source>Not set up. Set up downloads {download} and builds llama.cpp for this computer: about {minutes} on its {cores} core(s), {disk} of disk, {ram} of RAM to run it. It needs cmake and a C++ compiler.</source>
        <translation>尚未设置。“设置”会下载 {download}，并为这台计算机编译 llama.cpp：在它的 {cores} 个核心上约需 {minutes}，占用磁盘 {disk}，运行时需要内存 {ram}。需要 cmake 和 C++ 编译器。</translation>
    </message>
    <message>
        <source>Ready: {model}. Use it starts it on this computer ({url}) and answers through it.</source>
        <translation>已就绪：{model}。“使用它”会在这台计算机上启动它（{url}），并由它来回答。</translation>
    </message>
    <message>
        <source>Running on this computer: {model} at {url}.</source>
        <translation>正在这台计算机上运行：{model}，地址 {url}。</translation>
    </message>
    <message>
        <source>Being set up by another process (sam-agent local setup); Settings shows it ready once it is done.</source>
        <translation>另一个进程正在设置它（sam-agent local setup）；完成后“设置”会显示为已就绪。</translation>
    </message>
    <message>
        <source>Setting up: {stage}</source>
        <translation>正在设置：{stage}</translation>
    </message>
    <message>
        <source>Also running on this computer: {kind} at {url} (models: {models})</source>
        <translation>这台计算机上还在运行：{kind}，地址 {url}（模型：{models}）</translation>
    </message>
    <message>
        <source>Use {kind}</source>
        <translation>使用 {kind}</translation>
    </message>
    <message>
        <source>about {minutes} left</source>
        <translation>约剩 {minutes}</translation>
    </message>
    <message>
        <source>the local model, on this computer</source>
        <translation>本机模型，在这台计算机上</translation>
    </message>
    <message>
        <source>download llama.cpp</source>
        <translation>下载 llama.cpp</translation>
    </message>
    <message>
        <source>configure</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>model parts</source>
        <translation>模型分卷</translation>
    </message>
    <message>
        <source>smoke test</source>
        <translation>冒烟测试</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>Missing here: {tools}; install them with: {command}</source>
        <translation>这里缺少：{tools}；安装命令：{command}</translation>
    </message>
    <message>
        <source>existing nodes as planned (new ones: node count)</source>
        <translation>已有节点与计划一致（新增节点见节点数）</translation>
    </message>
    <message>
        <source>existing elements as planned (new ones: element count)</source>
        <translation>已有单元与计划一致（新增单元见单元数）</translation>
    </message>
    <message>
        <source>nodes changed, removed, added as planned</source>
        <translation>改动、删除、新增的节点与计划一致</translation>
    </message>
    <message>
        <source>elements changed, removed, added as planned</source>
        <translation>改动、删除、新增的单元与计划一致</translation>
    </message>
    <message>
        <source>see the property values</source>
        <translation>见属性值</translation>
    </message>
    <message>
        <source>definitions the calls write</source>
        <translation>调用写入的定义</translation>
    </message>
    <message>
        <source>the part does not exist yet</source>
        <translation>部件尚不存在</translation>
    </message>
    <message>
        <source>Replay answered with the recorded example, which does not act on your pick ({picked}): its steps' scopes are the recorded ones. Edit a step's scope to act on the pick, or use a live model.</source>
        <translation>回放使用录制的示例作答，未作用于您拾取的对象（{picked}）：各步骤的范围仍为录制时的范围。要作用于拾取的对象，请编辑步骤的范围，或使用在线模型。</translation>
    </message>
    <message>
        <source>Answering: no model configured — open Settings… (or set SAM_AGENT_BASE_URL and SAM_AGENT_MODEL)</source>
        <translation>作答：未配置模型 — 请打开“设置…”（或设置 SAM_AGENT_BASE_URL 和 SAM_AGENT_MODEL）</translation>
    </message>
    <message>
        <source>the picked selection ({count} {noun})</source>
        <translation>拾取的对象（{count} 个{noun}）</translation>
    </message>
    <message>
        <source>Fill in the labels to act on, e.g. 1-5, 9.</source>
        <translation>请填写要作用的标签，例如 1-5, 9。</translation>
    </message>
    <message>
        <source>Fill in the name of the set to act on.</source>
        <translation>请填写要作用的集合名称。</translation>
    </message>
    <message>
        <source>Fill in both corners of the box: min and max, each x, y, z.</source>
        <translation>请填写框的两个角点：最小点和最大点，各为 x, y, z。</translation>
    </message>
</context>
</TS>
