/**
 * Webhook routes (contract §7.5), administrators only: `/webhooks` (list, register),
 * `/webhooks/{id}` (read, change, remove), `/webhooks/{id}/ping`, `/webhooks/{id}/deliveries`.
 */
import type { Permit, RouteDef } from "../http/registry";
import { manageOptions } from "./access";
import { CREATE_ARGS, DELIVERIES_ARGS, LIST_ARGS, SINGLE_ARGS, UPDATE_ARGS } from "./args";
import { listDeliveries, pingWebhook } from "./deliveries";
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, updateWebhook } from "./manage";

const DENIED = [400, 401, 403];

/**
 * @example POST /wp-json/tribe/events/v1/webhooks {"url":"https://example.org/hook","events":["calendar.changed"]}
 */
export function webhookRoutes(): Array<RouteDef<Permit>> {
  return [
    {
      path: "/webhooks",
      endpoints: [
        {
          methods: ["GET"],
          args: LIST_ARGS,
          may: manageOptions,
          handler: listWebhooks,
          doc: { op: "webhooks.list", ok: 200, body: "WebhookArchive", errors: DENIED },
        },
        {
          methods: ["POST"],
          args: CREATE_ARGS,
          may: manageOptions,
          handler: createWebhook,
          doc: { op: "webhooks.create", ok: 201, body: "NewWebhook", errors: DENIED },
        },
      ],
    },
    {
      path: "/webhooks/{id}",
      endpoints: [
        {
          methods: ["GET"],
          args: SINGLE_ARGS,
          may: manageOptions,
          handler: getWebhook,
          doc: { op: "webhooks.read", ok: 200, body: "Webhook", errors: [...DENIED, 404] },
        },
        {
          methods: ["POST", "PUT", "PATCH"],
          args: UPDATE_ARGS,
          may: manageOptions,
          handler: updateWebhook,
          doc: { op: "webhooks.update", ok: 200, body: "Webhook", errors: [...DENIED, 404] },
        },
        {
          methods: ["DELETE"],
          args: SINGLE_ARGS,
          may: manageOptions,
          handler: deleteWebhook,
          doc: {
            op: "webhooks.delete",
            ok: 200,
            body: "DeletedWebhook",
            errors: [...DENIED, 404],
          },
        },
      ],
    },
    {
      path: "/webhooks/{id}/ping",
      endpoints: [
        {
          methods: ["POST"],
          args: SINGLE_ARGS,
          may: manageOptions,
          handler: pingWebhook,
          doc: { op: "webhooks.ping", ok: 202, body: "Ping", errors: [...DENIED, 404] },
        },
      ],
    },
    {
      path: "/webhooks/{id}/deliveries",
      endpoints: [
        {
          methods: ["GET"],
          args: DELIVERIES_ARGS,
          may: manageOptions,
          handler: listDeliveries,
          doc: {
            op: "webhooks.deliveries",
            ok: 200,
            body: "DeliveryArchive",
            errors: [...DENIED, 404],
          },
        },
      ],
    },
  ];
}
