/**
 * The agent-server methods of the official TypeScript client, read from its declaration files
 * (`node_modules/@openhands/typescript-client/dist/**.d.ts`, with TypeScript's parser): each
 * sub-client `AgentServerClient` declares (its property and its class), `ConversationManager` and
 * its ACP namespace, `RemoteConversation`, `RemoteState`, `RemoteEventsList` and `RemoteWorkspace`;
 * each public method as `area.method` (private and protected members and constructors left out).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';

const DIST = dirname(createRequire(import.meta.url).resolve('@openhands/typescript-client/clients'));

/** The class declarations of one declaration file, by name. */
function classesOf(file: string): Map<string, ts.ClassDeclaration> {
  const source = ts.createSourceFile(file, readFileSync(join(DIST, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const out = new Map<string, ts.ClassDeclaration>();
  source.forEachChild((node) => {
    if (ts.isClassDeclaration(node) && node.name) out.set(node.name.text, node);
  });
  return out;
}

/** Whether a member is private or protected (by keyword, or a `#name`). */
const hidden = (member: ts.ClassElement) =>
  (ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : []).some(
    (m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword,
  ) ||
  (member.name !== undefined && ts.isPrivateIdentifier(member.name));

/** The public methods of a class, as `area.method` (an async iterator as `area.asyncIterator`). */
function methodsOf(declaration: ts.ClassDeclaration, area: string): string[] {
  return declaration.members.flatMap((member) => {
    if (!ts.isMethodDeclaration(member) || hidden(member)) return [];
    const name = member.name;
    if (ts.isIdentifier(name)) return [`${area}.${name.text}`];
    if (ts.isComputedPropertyName(name) && name.expression.getText().includes('asyncIterator')) return [`${area}.asyncIterator`];
    return [];
  });
}

/** Every public method of the client's agent-server classes, as `area.method`, sorted. */
export function declaredClientMethods(): string[] {
  const out: string[] = [];
  // AgentServerClient's sub-clients: `readonly <area>: <Class>`, each class from the file it imports.
  const hubFile = 'client/openhands-client.d.ts';
  const hub = ts.createSourceFile(hubFile, readFileSync(join(DIST, hubFile), 'utf8'), ts.ScriptTarget.Latest, true);
  const fileOf = new Map<string, string>();
  hub.forEachChild((node) => {
    if (!ts.isImportDeclaration(node) || !ts.isStringLiteral(node.moduleSpecifier)) return;
    const bindings = node.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings))
      for (const element of bindings.elements)
        fileOf.set(element.name.text, `client/${node.moduleSpecifier.text.replace(/^\.\//, '').replace(/\.js$/, '.d.ts')}`);
  });
  const agentServer = classesOf(hubFile).get('AgentServerClient')!;
  for (const member of agentServer.members) {
    if (!ts.isPropertyDeclaration(member) || hidden(member) || !member.type || !ts.isTypeReferenceNode(member.type)) continue;
    const type = member.type.typeName.getText(hub);
    const file = fileOf.get(type);
    if (file) out.push(...methodsOf(classesOf(file).get(type)!, member.name.getText(hub)));
  }
  const manager = classesOf('conversation/conversation-manager.d.ts');
  out.push(
    ...methodsOf(manager.get('ConversationManager')!, 'manager'),
    ...methodsOf(manager.get('ACPConversationNamespace')!, 'manager.acp'),
  );
  out.push(...methodsOf(classesOf('conversation/remote-conversation.d.ts').get('RemoteConversation')!, 'remote'));
  out.push(...methodsOf(classesOf('conversation/remote-state.d.ts').get('RemoteState')!, 'state'));
  out.push(...methodsOf(classesOf('events/remote-events-list.d.ts').get('RemoteEventsList')!, 'events'));
  out.push(...methodsOf(classesOf('workspace/remote-workspace.d.ts').get('RemoteWorkspace')!, 'workspace'));
  return [...new Set(out)].sort();
}
