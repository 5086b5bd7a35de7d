/**
 * Request bodies of the applications and connector operations, as the client sends them. Objects
 * the server only forwards (formats, metadata, tracked events) are checked for shape and kept
 * whole; the fields Satchel acts on are checked strictly.
 */
import { z } from 'zod';
import { mechanism, transferableBytesFields, transferableStringFields } from './shared.ts';
import { lazy, get, json, none, post, text as textReply, type Accepts } from './operation.ts';
import type * as P from '@pieces.app/pieces-os-client';
import type * as W from '../core/piecesTypes.ts';
import type { SavedCheck } from '../core/connector/savedCheck.ts';
import type { StoredUsageEvent } from '../core/applications/applicationService.ts';

const text = lazy(() => z.string().min(1, 'must not be empty'));

/** SeededTrackedApplication: what an application says about itself when it connects. */
export const trackedApplication = lazy(() => z.looseObject({
  name: text(),
  version: text(),
  platform: text(),
  privacy: z.string().optional(),
  capabilities: z.string().optional(),
  automaticUnload: z.boolean().optional(),
  enrichment: z.looseObject({}).optional(),
}));

export const connectorConnection = lazy(() => z.looseObject({ application: trackedApplication() }));

const transferableString = lazy(() => z.looseObject(transferableStringFields()));
const transferableBytes = lazy(() => z.looseObject(transferableBytesFields()));
const contentPart = lazy(() => z.looseObject({ string: transferableString().optional(), bytes: transferableBytes().optional() }));

export const connectorAsset = lazy(() => z.looseObject({
  format: z.looseObject({
    fragment: contentPart().optional(),
    file: contentPart().optional(),
    classification: z.looseObject({}).optional(),
  }),
  metadata: z.looseObject({}).optional(),
}));

export const connectorCreation = lazy(() => z.looseObject({ asset: connectorAsset().optional() }));

export const reaction = lazy(() => z.looseObject({
  save: z.boolean(),
  reuse: z.looseObject({ asset: text() }).optional(),
  seed: connectorCreation(),
}));

const pairs = lazy(() => z.record(z.string(), z.unknown()));
const referenced = lazy(() => z.looseObject({ id: text() }));

export const tracking = lazy(() => z.looseObject({
  asset: z.looseObject({ asset: referenced(), identifier_description_pair: pairs().optional() }).optional(),
  format: z
    .looseObject({
      format: referenced().extend({ reference: z.looseObject({ asset: z.string().optional() }).optional() }),
      identifier_description_pair: pairs().optional(),
    })
    .optional(),
  interaction: z.looseObject({ description: z.string() }).optional(),
  keyboard: z.looseObject({ description: z.string(), shortcut: z.array(z.number()) }).optional(),
  session: z.looseObject({}).optional(),
  assets: z.looseObject({}).optional(),
  ml: z.looseObject({}).optional(),
  adoption: z.looseObject({}).optional(),
  conversation: z.looseObject({}).optional(),
  conversation_message: z.looseObject({}).optional(),
  workstream_summary: z.looseObject({}).optional(),
}));

/** Application as sent to register and update: update needs the id, register may leave it out. */
export const application = lazy(() => trackedApplication().extend({
  id: text().optional(),
  onboarded: z.boolean().optional(),
  mechanism: mechanism().optional(),
}));

export const applicationUpdate = lazy(() => application().extend({ id: text() }));

/*
 * The deprecated tracking operations take any JSON object an old client sends (or none): they only
 * record it. Fields Satchel reads are typed when present, so a wrong type is still a clear 400.
 */
const anyTrackedApplication = lazy(() => z.looseObject({ name: z.string().optional(), version: z.string().optional(), platform: z.string().optional() }));

export const interactionEvent = lazy(() => z.looseObject({ description: z.string().optional(), element: z.string().optional() }).optional());

export const keyboardEvent = lazy(() => z.looseObject({ description: z.string().optional(), shortcut: z.array(z.number()).optional() }).optional());

export const installation = lazy(() => z.looseObject({ application: anyTrackedApplication().optional() }).optional());

export const updateEvent = lazy(() => z.looseObject({ previous: anyTrackedApplication().optional(), current: anyTrackedApplication().optional() }).optional());

/** applicationsSessionClose sends a bare JSON string, or nothing. */
export const sessionId = lazy(() => z.string().min(1).optional());

/** Satchel's own question (not in the published interface): is this code already saved? */
export const savedQuestion = lazy(() => z.object({ text: text() }));

const onboardedFlag = lazy(() => z.boolean({ error: 'the body must be a bare JSON boolean (true or false)' }));

/** The connector area (interface.md §4.4): route and client both use these. */
export const connectorOperations = {
  connect: post('/connect', json<W.Context>(), 'SeededConnectorConnection', connectorConnection),
  suggestion: post('/:application/suggestion', json<W.Suggestion>(), 'SeededConnectorCreation', connectorCreation),
  /** The new asset's id after a save, else an acknowledgement. */
  reaction: post('/:application/reaction', textReply, 'Reaction', reaction),
  intention: post('/:application/intention', textReply, 'SeededConnectorAsset', connectorAsset),
  track: post('/:application/track', textReply, 'SeededConnectorTracking', tracking),
  onboarded: post('/:application/onboarded', textReply, 'onboarded flag', onboardedFlag),
  /** Asked, not reported: records no copy, counts no suggestion, ignores dismissals (core/connector/savedCheck.ts). */
  saved: post('/satchel/connector/saved', json<SavedCheck>(), 'saved question', savedQuestion),
} as const;

/** Every body the published models allow is accepted (see Accepts). */
export type PublishedConnectorBodies = [
  Accepts<ReturnType<typeof connectorConnection>, W.SeededConnectorConnection>,
  Accepts<ReturnType<typeof connectorCreation>, W.SeededConnectorCreation>,
  Accepts<ReturnType<typeof reaction>, W.Reaction>,
  Accepts<ReturnType<typeof connectorAsset>, W.SeededConnectorAsset>,
  Accepts<ReturnType<typeof tracking>, W.Jsonify<P.SeededConnectorTracking>>,
  Accepts<ReturnType<typeof applicationUpdate>, W.Application>,
];

/** The applications area's bodies (interface.md §4.3), deprecated tracking operations included. */
export const applicationOperations = {
  list: get('/applications', json<W.Applications>()),
  external: get('/applications/external', json<W.DetectedExternalApplications>()),
  externalRelated: get('/applications/external/related', json<W.DetectedExternalApplications>()),
  streamIdentifiers: get('/applications/stream/identifiers', json<W.StreamedIdentifiers>()),
  register: post('/applications/register', json<W.Application>(), 'Application', application),
  openSession: post('/applications/session/open', json<W.Session>()),
  closeSession: post('/applications/session/close', json<W.Session>(), 'session id (a bare JSON string)', sessionId),
  session: get('/applications/sessions/:session', json<W.Session>()),
  interaction: post('/applications/usage/engagement/interaction', json<StoredUsageEvent>(), 'SeededTrackedInteractionEvent', interactionEvent),
  keyboard: post('/applications/usage/engagement/keyboard', json<StoredUsageEvent>(), 'SeededTrackedKeyboardEvent', keyboardEvent),
  installation: post('/applications/usage/installation', none, 'TrackedApplicationInstall', installation),
  updated: post('/applications/usage/updated', none, 'TrackedApplicationUpdate', updateEvent),
  specific: get('/applications/:application', json<W.Application>()),
  update: post('/application/update', json<W.Application>(), 'Application', applicationUpdate),
} as const;
