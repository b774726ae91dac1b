package io.hbasesessions.formloginapp;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** {@code /cart?add=ITEM}, open to anyone: puts the item in the session, before any login. */
public class CartServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        request.getSession().setAttribute("cart", request.getParameter("add"));
        response.setContentType("text/plain;charset=UTF-8");
        response.getWriter().println("cart=" + request.getParameter("add"));
    }
}
