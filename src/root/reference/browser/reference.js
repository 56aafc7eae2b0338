// The reference page's own script, served from Workers static assets after Swagger UI's
// bundle: renders the OpenAPI document named by the page (`data-doc`, this language's `/doc`) in
// the element `#reference`. Kept out of the HTML so that the page's Content-Security-Policy can
// forbid inline scripts. Nothing is loaded from elsewhere: no validator badge, no remote config.
(() => {
  const root = document.getElementById("reference");
  if (!root || typeof window.SwaggerUIBundle !== "function") return;
  window.ui = window.SwaggerUIBundle({
    url: root.dataset.doc,
    domNode: root,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    // The online validator would send the document to a third party (and fail offline).
    validatorUrl: null,
    displayRequestDuration: true,
    // Credentials entered under "Authorize" are forgotten with the tab, never stored.
    persistAuthorization: false,
  });
})();
