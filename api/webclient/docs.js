// Swagger UI over this service's own contract; "Try it out" calls this same server.
window.addEventListener("DOMContentLoaded", () => {
  window.ui = window.SwaggerUIBundle({
    url: "/openapi.yaml",
    dom_id: "#swagger-ui",
    deepLinking: true,
    tryItOutEnabled: false,
    validatorUrl: null,
    presets: [window.SwaggerUIBundle.presets.apis],
    onComplete: () => { document.body.dataset.ready = "1"; },
  });
});
